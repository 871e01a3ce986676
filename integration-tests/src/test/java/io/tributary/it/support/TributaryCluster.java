package io.tributary.it.support;

import io.tributary.devstack.net.Ports;
import io.tributary.devstack.process.ServiceProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The whole system for the integration tests: real Kafka, PostgreSQL and Redis ({@link Engines}), and every service as a separate OS process started from its built jar — one session-service, one
 * routing-service and two transport nodes. Started once per test JVM and shared by all test classes (each test uses
 * its own client ids and topics); stopped when the JVM exits.
 */
public final class TributaryCluster {

    /** The first admin of the REST API of every session-service started here (see {@link AdminRequests}). */
    public static final String ADMIN_USER = "admin";

    public static final String ADMIN_PASSWORD = "it-admin-password";

    static final Duration HEALTHY_WITHIN = Duration.ofSeconds(120);
    private static final String[] NODE_IDS = {"it-node-1", "it-node-2"};
    /** Node 1 (the second) lowers keep alives above this, so MQTT 5 Server Keep Alive can be tested there. */
    private static final int NODE_2_MAX_KEEP_ALIVE = 120;
    /**
     * Node 0 holds at most this many bytes of QoS 1/2 messages per subscriber (the default is 16 MB), so the slow
     * consumer test reaches the limit within seconds at a rate a small shared machine sustains.
     */
    private static final long NODE_1_MAX_OUTBOUND_BYTES = 4L * 1024 * 1024;
    /**
     * Node liveness, shorter than the defaults (2 s / 10 s) so the dead-node test is quick, and still five heartbeats
     * per timeout, so a transport JVM starved of CPU on a busy CI machine is not declared dead by mistake.
     */
    public static final Duration HEARTBEAT_INTERVAL = Duration.ofSeconds(1);

    public static final Duration NODE_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration NODE_CHECK_INTERVAL = Duration.ofMillis(500);
    /** $SYS statistics every second, so a test sees figures that include its own clients quickly. */
    public static final Duration SYS_INTERVAL = Duration.ofSeconds(1);
    /** How often the nodes send their tenants' usage deltas (TenantMeteringTest waits for them). */
    public static final Duration METERING_INTERVAL = Duration.ofSeconds(1);

    private static TributaryCluster shared;
    /**
     * Small enough for a test to fill a session queue in seconds, large enough for the backlog of a fault-injection
     * test (a routing outage of about 45 s at 100 messages per second) to fit; the routing service enforces it.
     */
    public static final int SESSION_QUEUE_LIMIT = 6000;

    private final Path workDir;
    private final ServiceLauncher launcher;

    private Engines engines;
    private ServiceProcess session;
    private ServiceProcess routing;
    private final List<ServiceProcess> transports = new ArrayList<>();
    /**
     * Nodes and routers started by one test class for its own settings (TLS, WebSocket, static membership); logged
     * with the others.
     */
    private final List<ServiceProcess> extraTransports = new java.util.concurrent.CopyOnWriteArrayList<>();

    private final int[] mqttPorts = new int[NODE_IDS.length];
    private final int[] transportManagementPorts = new int[NODE_IDS.length];
    private int routingManagementPort;
    private SessionPorts sessionPorts;

    private TributaryCluster(
            Path workDir,
            Engines engines,
            java.util.Map<String, String> serviceEnv,
            java.util.Map<String, java.util.Map<String, String>> envByJar) {
        this.workDir = workDir;
        this.engines = engines;
        this.launcher = new ServiceLauncher(workDir, engines, serviceEnv, envByJar);
    }

    public static synchronized TributaryCluster shared() throws Exception {
        if (shared == null) {
            // The pid too: test JVMs run side by side (the module's tributary.it.forks), each with its own cluster.
            Path dir = Paths.get(
                            "target",
                            "it-cluster-" + System.currentTimeMillis() + "-"
                                    + ProcessHandle.current().pid())
                    .toAbsolutePath();
            Files.createDirectories(dir.resolve("logs"));
            shared = start(dir, EmbeddedEngines.start(dir, dir.resolve("logs")));
            Runtime.getRuntime().addShutdownHook(new Thread(shared::stop, "it-cluster-stop"));
        }
        return shared;
    }

    /** Starts the services against {@code engines}; the cluster owns the engines from then on. */
    public static TributaryCluster start(Path dir, Engines engines) throws Exception {
        return start(dir, engines, java.util.Map.of());
    }

    /**
     * Starts the services against {@code engines}, each with {@code serviceEnv} on top of the shared settings
     * (those of a service started later by this cluster included); the cluster owns the engines from then on.
     */
    public static TributaryCluster start(Path dir, Engines engines, java.util.Map<String, String> serviceEnv)
            throws Exception {
        return start(dir, engines, serviceEnv, java.util.Map.of());
    }

    /**
     * As {@link #start(Path, Engines, java.util.Map)}, and each kind of service with its own environment on top, by
     * module ({@code transport}, {@code routing}, {@code session}): e.g. each one's Kafka user, as deployed.
     */
    public static TributaryCluster start(
            Path dir,
            Engines engines,
            java.util.Map<String, String> serviceEnv,
            java.util.Map<String, java.util.Map<String, String>> envByModule)
            throws Exception {
        java.util.Map<String, java.util.Map<String, String>> byJar = new java.util.HashMap<>();
        envByModule.forEach((module, env) -> byJar.put("tributary.jars." + module, env));
        TributaryCluster cluster = new TributaryCluster(dir, engines, serviceEnv, byJar);
        try {
            cluster.startServices();
        } catch (Exception | Error e) {
            System.err.println(cluster.logTails(60));
            cluster.stop();
            throw e;
        }
        return cluster;
    }

    private void startServices() throws Exception {
        Files.createDirectories(workDir.resolve("logs"));
        long t0 = System.nanoTime();
        progress(
                "engines up (Kafka " + engines.kafkaBootstrapServers() + ", PostgreSQL " + engines.jdbcUrl()
                        + ", Redis " + RedisEnv.redacted(engines.redisUrl()) + ")",
                t0);

        ArchiveRecording.once(launcher);
        sessionPorts = SessionPorts.free();
        session = launcher.session("session", sessionPorts)
                // Most tests connect without credentials, as in the quick start; AuthenticationTest creates its own
                // credentials (which then apply also with anonymous access on) and checks the refusal of anonymous
                // clients on a session-service of its own with the production default.
                .env("TRIBUTARY_AUTH_ANONYMOUS", "true")
                .env("TRIBUTARY_SYS_INTERVAL", SYS_INTERVAL.toMillis() + "ms")
                .env("TRIBUTARY_METERING_SAMPLE_INTERVAL", "2s")
                .build();
        routingManagementPort = Ports.freePort();
        routing = launcher.service("routing", "tributary.jars.routing")
                .env("MANAGEMENT_PORT", routingManagementPort)
                .env("TRIBUTARY_QUEUE_LIMIT", SESSION_QUEUE_LIMIT)
                .env("TRIBUTARY_SYS_INTERVAL", SYS_INTERVAL.toMillis() + "ms")
                // the tenants' queued-message quotas
                .env("SESSION_SERVICE_URL", sessionInternalUrl())
                .build();
        for (int i = 0; i < NODE_IDS.length; i++) {
            mqttPorts[i] = Ports.freePort();
            transportManagementPorts[i] = Ports.freePort();
            ServiceProcess.Builder transport =
                    launcher.transport(NODE_IDS[i], mqttPorts[i], transportManagementPorts[i], sessionInternalUrl());
            if (i == 0) {
                transport.env("MQTT_MAX_OUTBOUND_BYTES_PER_CONNECTION", NODE_1_MAX_OUTBOUND_BYTES + "B");
            }
            if (i == 1) {
                transport.env("MQTT_MAX_KEEP_ALIVE", NODE_2_MAX_KEEP_ALIVE);
            }
            transports.add(transport
                    // Off by default (its cost: docs/benchmarks-history.md, section 13); every test runs with it on.
                    .env("TRIBUTARY_QOS2_EXACTLY_ONCE", "true")
                    .env("TRIBUTARY_SYS_INTERVAL", SYS_INTERVAL.toMillis() + "ms")
                    .env("TRIBUTARY_METERING_INTERVAL", METERING_INTERVAL.toMillis() + "ms")
                    // Short, so the Kafka outage test sees an unacknowledged publish refused within seconds.
                    .env("KAFKA_DELIVERY_TIMEOUT", "6s")
                    // Every test client connects from 127.0.0.1, and the fuzz and hostile tests open connections
                    // by the hundred: the per-address and node connection rates must not refuse them. LimitsTest
                    // checks those limits on nodes of its own.
                    .env("MQTT_MAX_CONNECTION_RATE_PER_IP", 100_000)
                    .env("MQTT_CONNECTION_BURST_PER_IP", 100_000)
                    .env("MQTT_MAX_CONNECTION_RATE", 100_000)
                    .env("MQTT_CONNECTION_BURST", 100_000)
                    .build());
        }
        session.start();
        routing.start();
        for (ServiceProcess transport : transports) {
            transport.start();
        }
        session.awaitHealthy(sessionPorts.management(), HEALTHY_WITHIN);
        routing.awaitHealthy(routingManagementPort, HEALTHY_WITHIN);
        for (int i = 0; i < transports.size(); i++) {
            transports.get(i).awaitHealthy(transportManagementPorts[i], HEALTHY_WITHIN);
        }
        progress(
                "services healthy: session " + sessionPorts + ", routing :" + routingManagementPort
                        + ", transport MQTT :" + mqttPorts[0] + " and :" + mqttPorts[1],
                t0);
    }

    /**
     * The transport nodes' internal token of the cluster: tests that call session-service's internal API as a transport
     * node send it.
     */
    public static final String INTERNAL_TOKEN = "it-internal-" + java.util.UUID.randomUUID();

    /** The routing nodes' internal token of the cluster (another role: the tenants' quotas only). */
    public static final String ROUTING_TOKEN = "it-routing-" + java.util.UUID.randomUUID();

    private static void progress(String what, long t0) {
        System.out.printf("[it-cluster] %s after %.1f s%n", what, (System.nanoTime() - t0) / 1e9);
    }

    public int mqttPort(int node) {
        return mqttPorts[node];
    }

    public String nodeId(int node) {
        return NODE_IDS[node];
    }

    /** {@code MQTT_MAX_OUTBOUND_BYTES_PER_CONNECTION} of a transport node. */
    public long maxOutboundBytesPerConnection(int node) {
        return node == 0 ? NODE_1_MAX_OUTBOUND_BYTES : 16L * 1024 * 1024;
    }

    /** The log file of a transport node (stdout and stderr of its process). */
    public Path transportLog(int node) {
        return launcher.log(NODE_IDS[node]);
    }

    /** {@code MQTT_MAX_KEEP_ALIVE} of a transport node: 65535 (the default) on node 0, lower on node 1. */
    public int maxKeepAliveSeconds(int node) {
        return node == 1 ? NODE_2_MAX_KEEP_ALIVE : 65535;
    }

    /** Base URL of the actuator (health, metrics) of a transport node, of routing-service and of session-service. */
    public String transportManagementUrl(int node) {
        return "http://127.0.0.1:" + transportManagementPorts[node];
    }

    public String routingManagementUrl() {
        return "http://127.0.0.1:" + routingManagementPort;
    }

    public String sessionManagementUrl() {
        return sessionPorts.managementUrl();
    }

    /** The admin REST API and the console of session-service. */
    public String sessionApiUrl() {
        return sessionPorts.apiUrl();
    }

    /** session-service's internal API, which the nodes' {@code SESSION_SERVICE_URL} names. */
    public String sessionInternalUrl() {
        return sessionPorts.internalUrl();
    }

    public String kafkaBootstrapServers() {
        return engines.kafkaBootstrapServers();
    }

    /** The Redis every service of the cluster uses ({@code redis://host:port}). */
    public String redisUrl() {
        return engines.redisUrl();
    }

    /** SIGKILL of the Kafka broker process: a crash, not a shutdown. */
    public void killKafka() {
        engines.killKafka();
    }

    /** Starts the Kafka broker again on the same data directory and ports; returns once it answers. */
    public void restartKafka() throws Exception {
        engines.restartKafka();
    }

    /** The services a fault-injection test can kill and start again. */
    public enum Service {
        SESSION,
        ROUTING,
        TRANSPORT_1,
        TRANSPORT_2
    }

    /** SIGKILL of a service process: a crash, not a shutdown. */
    public void kill(Service service) {
        process(service).kill();
    }

    /** SIGTERM of a service process and a wait for its exit: a shutdown, as in a rolling deploy. */
    public void stop(Service service) {
        process(service).stop();
    }

    /** Starts a killed service again with the same settings; returns once it reports healthy. */
    public void restart(Service service) throws Exception {
        ServiceProcess process = process(service);
        process.start();
        process.awaitHealthy(managementPort(service), HEALTHY_WITHIN);
    }

    private ServiceProcess process(Service service) {
        return switch (service) {
            case SESSION -> session;
            case ROUTING -> routing;
            case TRANSPORT_1 -> transports.get(0);
            case TRANSPORT_2 -> transports.get(1);
        };
    }

    private int managementPort(Service service) {
        return switch (service) {
            case SESSION -> sessionPorts.management();
            case ROUTING -> routingManagementPort;
            case TRANSPORT_1 -> transportManagementPorts[0];
            case TRANSPORT_2 -> transportManagementPorts[1];
        };
    }

    /** Stops Redis (it writes its append-only file) and starts it again on the same data and port. */
    public void restartRedis() throws Exception {
        engines.restartRedis();
    }

    /** Stops PostgreSQL and starts it again on the same data and port. */
    public void restartPostgres() throws Exception {
        engines.restartPostgres();
    }

    /** SIGKILL of a transport node process: a crash, its connections die without any cleanup. */
    public void killTransport(int node) {
        transports.get(node).kill();
    }

    /**
     * Starts a killed transport node again (same node id and ports, a new incarnation) and returns once it is
     * healthy, which includes being registered with session-service, so later tests find it ready for clients.
     */
    public void restartTransport(int node) throws Exception {
        ServiceProcess transport = transports.get(node);
        if (!transport.isAlive()) {
            transport.start();
        }
        transport.awaitHealthy(transportManagementPorts[node], HEALTHY_WITHIN);
    }

    /**
     * Starts one more transport node with its own settings on top of the shared ones; see
     * {@link ExtraServices#startTransport}.
     */
    public ExtraTransport startTransport(String nodeId, java.util.Map<String, Object> env) throws Exception {
        return extras().startTransport(nodeId, env);
    }

    /** One more routing-service; see {@link ExtraServices#startRouter}. */
    public ExtraRouter startRouter(String name, java.util.Map<String, Object> env) throws Exception {
        return extras().startRouter(name, env);
    }

    /** One more session-service instance; see {@link ExtraServices#startSessionService}. */
    public ExtraSession startSessionService(String name) throws Exception {
        return extras().startSessionService(name);
    }

    /** A session-service of its own with one transport node; see {@link ExtraServices#startSatellite}. */
    public Satellite startSatellite(String name, java.util.Map<String, String> sessionEnv) throws Exception {
        return extras().startSatellite(name, sessionEnv);
    }

    private ExtraServices extras() {
        return new ExtraServices(launcher, extraTransports, sessionInternalUrl());
    }

    /** The last lines of every service log, for a failing test's report. */
    public String logTails(int lines) {
        StringBuilder out = new StringBuilder();
        List<ServiceProcess> all = new ArrayList<>();
        if (session != null) {
            all.add(session);
        }
        if (routing != null) {
            all.add(routing);
        }
        all.addAll(transports);
        all.addAll(extraTransports);
        for (ServiceProcess p : all) {
            out.append("----- ")
                    .append(p.name())
                    .append(" (")
                    .append(p.logFile())
                    .append(") -----\n")
                    .append(p.tail(lines))
                    .append('\n');
        }
        return out.toString();
    }

    /** Stops the services, then the engines. */
    public synchronized void stop() {
        for (ServiceProcess t : transports) {
            t.stop();
        }
        for (ServiceProcess t : extraTransports) {
            t.stop();
        }
        if (routing != null) {
            routing.stop();
        }
        if (session != null) {
            session.stop();
        }
        if (engines != null) {
            engines.close();
            engines = null;
        }
    }
}
