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

    private static final Duration HEALTHY_WITHIN = Duration.ofSeconds(120);
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

    /**
     * The routers' consumer group ({@code tributary-routing}, routing-service's default) gets this session timeout
     * and a 1 s heartbeat on the test brokers instead of Kafka's 45 s and 5 s: a killed router (a dynamic member)
     * keeps its publish partitions until its session expires, so FaultInjectionTest's router kill waited ~35 s for
     * Kafka, not for Tributary. Ten heartbeats per timeout, so a router starved of CPU is not fenced by mistake.
     */
    public static final Duration ROUTERS_SESSION_TIMEOUT = Duration.ofSeconds(10);

    public static final String ROUTERS_GROUP = "tributary-routing";

    private static TributaryCluster shared;
    /**
     * Small enough for a test to fill a session queue in seconds, large enough for the backlog of a fault-injection
     * test (a routing outage of about 45 s at 100 messages per second) to fit; the routing service enforces it.
     */
    public static final int SESSION_QUEUE_LIMIT = 6000;

    private final Path workDir;
    /** Environment every service of this cluster gets on top of the shared settings (e.g. Kafka credentials). */
    private final java.util.Map<String, String> serviceEnv;

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
    private final int[] transportHttpPorts = new int[NODE_IDS.length];
    private int routingHttpPort;
    private int sessionHttpPort;

    private TributaryCluster(Path workDir, java.util.Map<String, String> serviceEnv) {
        this.workDir = workDir;
        this.serviceEnv = java.util.Map.copyOf(serviceEnv);
    }

    public static synchronized TributaryCluster shared() throws Exception {
        if (shared == null) {
            Path dir = Paths.get("target", "it-cluster-" + System.currentTimeMillis())
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
        TributaryCluster cluster = new TributaryCluster(dir, serviceEnv);
        cluster.engines = engines;
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

        sessionHttpPort = Ports.freePort();
        session = service("session", "tributary.jars.session")
                .env("HTTP_PORT", sessionHttpPort)
                .env("POSTGRES_URL", engines.jdbcUrl())
                .env("POSTGRES_USER", engines.dbUser())
                .env("POSTGRES_PASSWORD", engines.dbPassword())
                .env("NODE_TIMEOUT", NODE_TIMEOUT.toMillis() + "ms")
                .env("NODE_CHECK_INTERVAL", NODE_CHECK_INTERVAL.toMillis() + "ms")
                // Most tests connect without credentials, as in the quick start; AuthenticationTest creates its own
                // credentials (which then apply also with anonymous access on) and checks the refusal of anonymous
                // clients on a session-service of its own with the production default.
                .env("TRIBUTARY_AUTH_ANONYMOUS", "true")
                // Every test client comes from 127.0.0.1, hostile ones included: a per-address count of failed
                // authentications would let one test's wrong passwords refuse the next test's right ones.
                .env("TRIBUTARY_AUTH_FAILURE_BACK_OFF_PER_ADDRESS", 0)
                // The first admin of the REST API; tests get its token through AdminRequests.
                .env("TRIBUTARY_ADMIN_USER", ADMIN_USER)
                .env("TRIBUTARY_ADMIN_PASSWORD", ADMIN_PASSWORD)
                .env("TRIBUTARY_SYS_INTERVAL", SYS_INTERVAL.toMillis() + "ms")
                .env("TRIBUTARY_METERING_SAMPLE_INTERVAL", "2s")
                .build();
        routingHttpPort = Ports.freePort();
        routing = service("routing", "tributary.jars.routing")
                .env("HTTP_PORT", routingHttpPort)
                .env("TRIBUTARY_QUEUE_LIMIT", SESSION_QUEUE_LIMIT)
                .env("TRIBUTARY_SYS_INTERVAL", SYS_INTERVAL.toMillis() + "ms")
                // the tenants' queued-message quotas
                .env("SESSION_SERVICE_URL", sessionApiUrl())
                .build();
        for (int i = 0; i < NODE_IDS.length; i++) {
            mqttPorts[i] = Ports.freePort();
            int httpPort = Ports.freePort();
            transportHttpPorts[i] = httpPort;
            ServiceProcess.Builder transport = service(NODE_IDS[i], "tributary.jars.transport");
            if (i == 0) {
                transport.env("MQTT_MAX_OUTBOUND_BYTES_PER_CONNECTION", NODE_1_MAX_OUTBOUND_BYTES + "B");
            }
            if (i == 1) {
                transport.env("MQTT_MAX_KEEP_ALIVE", NODE_2_MAX_KEEP_ALIVE);
            }
            transports.add(transport
                    .env("HTTP_PORT", httpPort)
                    .env("MQTT_HOST", "127.0.0.1")
                    .env("MQTT_PORT", mqttPorts[i])
                    .env("TRIBUTARY_NODE_ID", NODE_IDS[i])
                    // Off by default (its cost: docs/benchmarks-history.md, section 13); every test runs with it on.
                    .env("TRIBUTARY_QOS2_EXACTLY_ONCE", "true")
                    .env("SESSION_SERVICE_URL", sessionApiUrl())
                    .env("NODE_HEARTBEAT_INTERVAL", HEARTBEAT_INTERVAL.toMillis() + "ms")
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
        session.awaitHealthy(sessionHttpPort, HEALTHY_WITHIN);
        routing.awaitHealthy(routingHttpPort, HEALTHY_WITHIN);
        for (int i = 0; i < transports.size(); i++) {
            transports.get(i).awaitHealthy(transportHttpPorts[i], HEALTHY_WITHIN);
        }
        progress(
                "services healthy: session :" + sessionHttpPort + ", routing :" + routingHttpPort + ", transport MQTT :"
                        + mqttPorts[0] + " and :" + mqttPorts[1],
                t0);
    }

    /** Sets {@link #ROUTERS_SESSION_TIMEOUT} (and a 1 s heartbeat) as the routers' group configuration. */
    static void routersGroupTimeouts(String bootstrapServers) throws Exception {
        routersGroupSessionTimeout(bootstrapServers, ROUTERS_SESSION_TIMEOUT);
    }

    /** The routers' group session timeout (its heartbeat stays 1 s); for a test that needs another one for a while. */
    public static void routersGroupSessionTimeout(String bootstrapServers, Duration timeout) throws Exception {
        try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(java.util.Map.of(
                org.apache.kafka.clients.admin.AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            org.apache.kafka.common.config.ConfigResource group = new org.apache.kafka.common.config.ConfigResource(
                    org.apache.kafka.common.config.ConfigResource.Type.GROUP, ROUTERS_GROUP);
            admin.incrementalAlterConfigs(java.util.Map.of(
                            group,
                            List.of(
                                    set("consumer.session.timeout.ms", timeout.toMillis()),
                                    set("consumer.heartbeat.interval.ms", 1000))))
                    .all()
                    .get(30, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    private static org.apache.kafka.clients.admin.AlterConfigOp set(String name, long value) {
        return new org.apache.kafka.clients.admin.AlterConfigOp(
                new org.apache.kafka.clients.admin.ConfigEntry(name, String.valueOf(value)),
                org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET);
    }

    /** The cluster's internal API secret: tests that call session-service's internal API send it. */
    public static final String INTERNAL_TOKEN = "it-internal-" + java.util.UUID.randomUUID();

    private ServiceProcess.Builder service(String name, String jarProperty) {
        String jar = System.getProperty(jarProperty);
        if (jar == null || !Files.isRegularFile(Paths.get(jar))) {
            throw new IllegalStateException("service jar not found (" + jarProperty + "=" + jar
                    + "): run the build from the repository root, e.g. ./mvnw verify");
        }
        ServiceProcess.Builder builder = ServiceProcess.builder(name, Paths.get(jar))
                .heap("256m")
                .jvmOption("-XX:+UseSerialGC")
                .jvmOption("-XX:TieredStopAtLevel=1")
                .logFile(log(name))
                .env("KAFKA_BOOTSTRAP_SERVERS", engines.kafkaBootstrapServers())
                // The internal API's secret, the same for every service of the cluster.
                .env("TRIBUTARY_INTERNAL_TOKEN", INTERNAL_TOKEN)
                .env("TRIBUTARY_PUBLISH_PARTITIONS", 4)
                // C1 only (above): there is little JIT to wait for, and ~40 service starts per run would each
                // pay for it; WarmUpTest turns it on for its own node.
                .env("TRIBUTARY_WARM_UP_ENABLED", false);
        // Every service reaches Redis: session-service for presence and queue lifecycles, routing to append to
        // session queues, transport nodes to read them. Authenticated, as in the shipped deployments.
        RedisEnv.of(engines.redisUrl()).forEach(builder::env);
        serviceEnv.forEach(builder::env);
        return builder;
    }

    private Path log(String name) {
        return workDir.resolve("logs").resolve(name + ".log");
    }

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
        return log(NODE_IDS[node]);
    }

    /** {@code MQTT_MAX_KEEP_ALIVE} of a transport node: 65535 (the default) on node 0, lower on node 1. */
    public int maxKeepAliveSeconds(int node) {
        return node == 1 ? NODE_2_MAX_KEEP_ALIVE : 65535;
    }

    /** Base URL of the actuator endpoints of a transport node, of routing-service and of session-service. */
    public String transportHttpUrl(int node) {
        return "http://127.0.0.1:" + transportHttpPorts[node];
    }

    public String routingHttpUrl() {
        return "http://127.0.0.1:" + routingHttpPort;
    }

    public String sessionApiUrl() {
        return "http://127.0.0.1:" + sessionHttpPort;
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
        process.awaitHealthy(httpPort(service), HEALTHY_WITHIN);
    }

    private ServiceProcess process(Service service) {
        return switch (service) {
            case SESSION -> session;
            case ROUTING -> routing;
            case TRANSPORT_1 -> transports.get(0);
            case TRANSPORT_2 -> transports.get(1);
        };
    }

    private int httpPort(Service service) {
        return switch (service) {
            case SESSION -> sessionHttpPort;
            case ROUTING -> routingHttpPort;
            case TRANSPORT_1 -> transportHttpPorts[0];
            case TRANSPORT_2 -> transportHttpPorts[1];
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
        transport.awaitHealthy(transportHttpPorts[node], HEALTHY_WITHIN);
    }

    /** A transport node started by {@link #startTransport}; closing it stops the process. */
    public record ExtraTransport(ServiceProcess process, int mqttPort, int httpPort) implements AutoCloseable {
        @Override
        public void close() {
            process.stop();
        }
    }

    /**
     * Starts one more transport node with its own settings on top of the shared ones (for listeners the shared nodes
     * do not open), connected to the same session-service, routing and Kafka, and waits until it is healthy. The
     * caller stops it; its sessions are then ended by node liveness like any stopped node's.
     */
    public ExtraTransport startTransport(String nodeId, java.util.Map<String, Object> env) throws Exception {
        int mqttPort = Ports.freePort();
        int httpPort = Ports.freePort();
        ServiceProcess.Builder builder = service(nodeId, "tributary.jars.transport")
                .env("HTTP_PORT", httpPort)
                .env("MQTT_HOST", "127.0.0.1")
                .env("MQTT_PORT", mqttPort)
                .env("TRIBUTARY_NODE_ID", nodeId)
                .env("SESSION_SERVICE_URL", sessionApiUrl())
                .env("NODE_HEARTBEAT_INTERVAL", HEARTBEAT_INTERVAL.toMillis() + "ms")
                .env("TRIBUTARY_QOS2_EXACTLY_ONCE", "true");
        env.forEach(builder::env);
        ServiceProcess process = builder.build();
        extraTransports.add(process);
        process.start();
        process.awaitHealthy(httpPort, HEALTHY_WITHIN);
        return new ExtraTransport(process, mqttPort, httpPort);
    }

    /** A routing-service started by {@link #startRouter}; closing it stops the process. */
    public record ExtraRouter(ServiceProcess process, int httpPort) implements AutoCloseable {

        /** SIGTERM, then start again with the same settings; returns once it is healthy. */
        public void restart() throws Exception {
            process.stop();
            process.start();
            process.awaitHealthy(httpPort, HEALTHY_WITHIN);
        }

        @Override
        public void close() {
            process.stop();
        }
    }

    /**
     * One more routing-service with the shared settings plus {@code env}, in the routers' consumer group unless
     * {@code env} names another; returns once it is healthy. The caller stops it. Its log is appended to on restarts.
     */
    public ExtraRouter startRouter(String name, java.util.Map<String, Object> env) throws Exception {
        int httpPort = Ports.freePort();
        ServiceProcess.Builder builder = service(name, "tributary.jars.routing")
                .env("HTTP_PORT", httpPort)
                .env("TRIBUTARY_QUEUE_LIMIT", SESSION_QUEUE_LIMIT);
        env.forEach(builder::env);
        ServiceProcess process = builder.build();
        extraTransports.add(process);
        process.start();
        try {
            process.awaitHealthy(httpPort, HEALTHY_WITHIN);
        } catch (Exception | Error e) {
            System.err.println(process.tail(60));
            process.stop();
            throw e;
        }
        return new ExtraRouter(process, httpPort);
    }

    /**
     * One more session-service instance on the same engines and settings as the shared one (a second replica, as
     * a deployment scales it out), with a retained-message group of its own so the shared instance keeps its
     * partitions. The caller stops or kills it.
     */
    public ExtraSession startSessionService(String name) throws Exception {
        int port = Ports.freePort();
        ServiceProcess process =
                extraSession(name, port).env("TRIBUTARY_AUTH_ANONYMOUS", "true").build();
        process.start();
        try {
            process.awaitHealthy(port, HEALTHY_WITHIN);
        } catch (Exception | Error e) {
            System.err.println(process.tail(60));
            process.stop();
            throw e;
        }
        return new ExtraSession(process, port);
    }

    /**
     * A session-service process beside the shared one, on the same engines, with a retained-message group of its own
     * so the shared instance keeps all its partitions.
     */
    private ServiceProcess.Builder extraSession(String name, int port) {
        return service(name, "tributary.jars.session")
                .env("HTTP_PORT", port)
                .env("POSTGRES_URL", engines.jdbcUrl())
                .env("POSTGRES_USER", engines.dbUser())
                .env("POSTGRES_PASSWORD", engines.dbPassword())
                .env("NODE_TIMEOUT", NODE_TIMEOUT.toMillis() + "ms")
                .env("NODE_CHECK_INTERVAL", NODE_CHECK_INTERVAL.toMillis() + "ms")
                .env("RETAINED_CONSUMER_GROUP", "tributary-retained-" + name.replace("-session", ""))
                .env("TRIBUTARY_AUTH_FAILURE_BACK_OFF_PER_ADDRESS", 0)
                .env("TRIBUTARY_ADMIN_USER", ADMIN_USER)
                .env("TRIBUTARY_ADMIN_PASSWORD", ADMIN_PASSWORD);
    }

    /** A second session-service instance; see {@link #startSessionService}. */
    public record ExtraSession(ServiceProcess process, int httpPort) implements AutoCloseable {

        public String url() {
            return "http://127.0.0.1:" + httpPort;
        }

        @Override
        public void close() {
            process.stop();
        }
    }

    /**
     * A session-service of its own (same engines, {@code sessionEnv} on top of the shared settings) with one transport
     * node that uses it: for settings the shared cluster cannot have, such as anonymous access off. Close it at the
     * end of the test; the node's sessions are then ended by node liveness like those of any stopped node.
     */
    public Satellite startSatellite(String name, java.util.Map<String, String> sessionEnv) throws Exception {
        int sessionPort = Ports.freePort();
        ServiceProcess.Builder sessionBuilder = extraSession(name + "-session", sessionPort);
        sessionEnv.forEach(sessionBuilder::env);
        ServiceProcess satelliteSession = sessionBuilder.build();
        int mqttPort = Ports.freePort();
        int transportHttpPort = Ports.freePort();
        ServiceProcess satelliteTransport = service(name + "-node", "tributary.jars.transport")
                .env("HTTP_PORT", transportHttpPort)
                .env("MQTT_HOST", "127.0.0.1")
                .env("MQTT_PORT", mqttPort)
                .env("TRIBUTARY_NODE_ID", name + "-node")
                .env("SESSION_SERVICE_URL", "http://127.0.0.1:" + sessionPort)
                .env("NODE_HEARTBEAT_INTERVAL", HEARTBEAT_INTERVAL.toMillis() + "ms")
                .build();
        Satellite satellite = new Satellite(satelliteSession, satelliteTransport, mqttPort);
        try {
            satelliteSession.start();
            satelliteTransport.start();
            satelliteSession.awaitHealthy(sessionPort, HEALTHY_WITHIN);
            satelliteTransport.awaitHealthy(transportHttpPort, HEALTHY_WITHIN);
        } catch (Exception | Error e) {
            System.err.println(satelliteSession.tail(60) + "\n" + satelliteTransport.tail(60));
            satellite.close();
            throw e;
        }
        return satellite;
    }

    /** A session-service and a transport node beside the shared cluster; see {@link #startSatellite}. */
    public record Satellite(ServiceProcess session, ServiceProcess transport, int mqttPort) implements AutoCloseable {

        public String logTails(int lines) {
            return "----- " + session.name() + " -----\n" + session.tail(lines) + "\n----- " + transport.name()
                    + " -----\n" + transport.tail(lines);
        }

        @Override
        public void close() {
            transport.stop();
            session.stop();
        }
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
