package io.tributary.devstack.quickstart;

import io.tributary.devstack.kafka.KafkaBrokerProcess;
import io.tributary.devstack.postgres.EmbeddedPostgresServer;
import io.tributary.devstack.postgres.PostgresServerMain;
import io.tributary.devstack.process.ChildProcess;
import io.tributary.devstack.process.JavaMainProcess;
import io.tributary.devstack.process.ProcessSupervisor;
import io.tributary.devstack.process.ServiceProcess;
import io.tributary.devstack.redis.RedisCredentials;
import io.tributary.devstack.redis.RedisServerMain;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Starts Kafka, PostgreSQL, Redis (each in a child JVM), then session-, routing- and transport-service from their
 * jars, each waited for before the next; stops them in the reverse order. Every child runs in a session of its own,
 * so a Ctrl-C reaches only the quickstart JVM, whose shutdown hook calls {@link #stop()}.
 */
final class QuickstartStack {

    static final String SESSION = "session-service";
    static final String ROUTING = "routing-service";
    static final String TRANSPORT = "transport-service";
    private static final Duration HEALTH_TIMEOUT = Duration.ofMinutes(3);
    /**
     * Collector of Kafka and the services: their young-generation pauses (G1 in the services, 35-40 ms on average on
     * 2 shared cores; Serial in Kafka, 20-95 ms) were the tail of the data path's latency (docs/benchmarks-history.md, section 7).
     */
    static final String LOW_PAUSE_GC = "-XX:+UseZGC";
    /** A crashed process comes back after 1 s, then 2, 4, ... 60 s while it keeps crashing within 5 minutes. */
    private static final Duration FIRST_RESTART_BACKOFF = Duration.ofSeconds(1);

    private static final Duration MAX_RESTART_BACKOFF = Duration.ofSeconds(60);
    private static final Duration STABLE_AFTER = Duration.ofMinutes(5);

    private final QuickstartSettings settings;
    private final Console console;
    private final List<ChildProcess> started = Collections.synchronizedList(new ArrayList<>());
    private final ProcessSupervisor supervisor;
    private volatile boolean stopping;
    private String postgresUrl;
    private String redisAddress;
    private String redisUrl;
    private AdminPassword adminPassword;
    private InternalTokens internalTokens;

    QuickstartStack(QuickstartSettings settings, Console console) {
        this.settings = settings;
        this.console = console;
        this.supervisor = new ProcessSupervisor(
                FIRST_RESTART_BACKOFF, MAX_RESTART_BACKOFF, STABLE_AFTER, console::line, this::isStopping);
    }

    void start(Map<String, Path> serviceJars) throws Exception {
        int total = settings.infraOnly() ? 3 : 6;
        Path data = settings.dataDir();
        // Before PostgreSQL creates its directory: AdminPassword tells a new data directory from an earlier one by it.
        adminPassword();
        KafkaBrokerProcess kafka = register(KafkaBrokerProcess.builder(data.resolve("kafka"))
                .ports(settings.kafkaPort(), settings.kafkaControllerPort())
                .logFile(log("kafka"))
                .heap("512m")
                // Data path latency: Serial GC stopped the broker for 20-95 ms every few seconds under the fan-out
                // benchmark (JFR), stalling both Kafka hops; ZGC pauses stay under a millisecond.
                .garbageCollector(LOW_PAUSE_GC)
                .echo(settings.verbose())
                .detached(true)
                .stopOnJvmExit(false)
                .build());
        step(1, total, "Kafka (KRaft, single node) on " + settings.kafkaBootstrapServers(), kafka, kafka::start);
        supervise(kafka, kafka::start);

        JavaMainProcess postgres = register(infra("postgres", PostgresServerMain.class.getName(), "128m")
                .arg("data-dir", data.resolve("postgres"))
                .arg("port", settings.postgresPort())
                .arg("fsync", settings.postgresFsync())
                .build());
        step(
                2,
                total,
                "PostgreSQL on 127.0.0.1:" + settings.postgresPort()
                        + (settings.postgresFsync() ? "" : " (POSTGRES_FSYNC=false: a crash can lose or corrupt data)"),
                postgres,
                () -> postgresUrl = postgres.start());
        supervise(postgres, postgres::start);

        JavaMainProcess redis = register(infra("redis", RedisServerMain.class.getName(), "64m")
                .arg("data-dir", data.resolve("redis"))
                .arg("port", settings.redisPort())
                .build());
        // The child announces its address only (its stdout is logged); the services get the URL with the user and
        // the password the child keeps in its data directory.
        step(3, total, "Redis on 127.0.0.1:" + settings.redisPort(), redis, () -> {
            redisAddress = redis.start();
            redisUrl = RedisCredentials.ofDataDir(data.resolve("redis")).insertInto(redisAddress);
        });
        supervise(redis, redis::start);

        if (settings.infraOnly()) {
            return;
        }
        startService(
                4,
                SESSION,
                serviceJars.get(SESSION),
                sessionPorts(),
                settings.sessionManagementPort(),
                "REST on :" + settings.httpPort() + ", internal API on :" + settings.sessionInternalPort()
                        + ", management on :" + settings.sessionManagementPort());
        startService(
                5,
                ROUTING,
                serviceJars.get(ROUTING),
                Map.of("MANAGEMENT_PORT", String.valueOf(settings.routingManagementPort())),
                settings.routingManagementPort(),
                "management on :" + settings.routingManagementPort());
        startService(
                6,
                TRANSPORT,
                serviceJars.get(TRANSPORT),
                Map.of("MANAGEMENT_PORT", String.valueOf(settings.transportManagementPort())),
                settings.transportManagementPort(),
                "MQTT on :" + settings.mqttPort() + ", management on :" + settings.transportManagementPort());
    }

    /** Stops everything started so far, last started first. Safe to call more than once and during start. */
    void stop() {
        stopping = true;
        List<ChildProcess> toStop;
        synchronized (started) {
            toStop = new ArrayList<>(started);
            started.clear();
        }
        Collections.reverse(toStop);
        for (ChildProcess process : toStop) {
            if (process.isAlive()) {
                console.line("Stopping " + process.name() + " ...");
                process.stop();
            }
        }
        if (!toStop.isEmpty()) {
            console.line("Stopped. Data stays in " + settings.dataDir());
        }
    }

    /** Restarts, with back-off, what ended although nobody asked it to; called every second once started. */
    void restartCrashed() {
        supervisor.checkOnce();
    }

    /** A restart that raced with {@link #stop()} stops what it started: nothing outlives the stack. */
    private void supervise(ChildProcess process, ProcessSupervisor.Restart restart) {
        supervisor.watch(process, () -> {
            restart.run();
            if (stopping) {
                process.stop();
            }
        });
    }

    boolean isStopping() {
        return stopping;
    }

    String postgresUrl() {
        return postgresUrl;
    }

    /** {@code redis://127.0.0.1:<port>}: what may be printed. */
    String redisAddress() {
        return redisAddress;
    }

    /**
     * session-service's three ports. Spring Boot binds the management port to every interface unless told otherwise
     * (it does not take {@code SERVER_ADDRESS}), so it gets the bind address explicitly; the internal API's connector
     * takes {@code SERVER_ADDRESS}.
     */
    private Map<String, String> sessionPorts() {
        Map<String, String> ports = new LinkedHashMap<>();
        ports.put("HTTP_PORT", String.valueOf(settings.httpPort()));
        ports.put("INTERNAL_API_PORT", String.valueOf(settings.sessionInternalPort()));
        ports.put("MANAGEMENT_PORT", String.valueOf(settings.sessionManagementPort()));
        ports.put("MANAGEMENT_SERVER_ADDRESS", settings.bindAddress());
        return ports;
    }

    private void startService(
            int index, String name, Path jar, Map<String, String> ports, int managementPort, String listens)
            throws Exception {
        Map<String, String> environment = serviceEnvironment();
        environment.putAll(ports);
        // The internal API's tokens: session-service both, the router and the transport node their own.
        environment.putAll(internalTokens().environmentOf(name));
        ServiceProcess service = register(ServiceProcess.builder(name, jar)
                .heap(settings.serviceHeap())
                .garbageCollector(LOW_PAUSE_GC)
                .environment(environment)
                .runFromCopyIn(settings.dataDir().resolve("jars"))
                .logFile(log(name))
                .echo(settings.verbose())
                .detached(true)
                .stopOnJvmExit(false)
                .build());
        ProcessSupervisor.Restart startHealthy = () -> {
            service.start();
            service.awaitHealthy(healthUrl(managementPort), HEALTH_TIMEOUT);
        };
        step(index, 6, name + " (" + listens + ")", service, startHealthy::run);
        supervise(service, startHealthy);
    }

    /** Runs a startup step; a stop requested meanwhile (Ctrl-C) also stops what the step just started. */
    private void step(int index, int total, String what, ChildProcess process, Console.Step step) throws Exception {
        console.step(index, total, what, step);
        if (stopping) {
            process.stop();
            throw new IllegalStateException("stopped during startup");
        }
    }

    /** One per calling role ({@link InternalTokens}), read or generated on first use. */
    synchronized InternalTokens internalTokens() {
        if (internalTokens == null) {
            internalTokens = InternalTokens.of(System.getenv(), settings.dataDir());
        }
        return internalTokens;
    }

    private java.net.URI healthUrl(int managementPort) {
        return java.net.URI.create("http://" + settings.localAddress() + ":" + managementPort + "/actuator/health");
    }

    private Map<String, String> serviceEnvironment() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("KAFKA_BOOTSTRAP_SERVERS", settings.kafkaBootstrapServers());
        env.put("TRIBUTARY_PUBLISH_PARTITIONS", String.valueOf(settings.publishPartitions()));
        env.put("TRIBUTARY_REPLICATION_FACTOR", "1");
        env.put("POSTGRES_URL", postgresUrl);
        env.put("POSTGRES_USER", EmbeddedPostgresServer.USER);
        env.put("POSTGRES_PASSWORD", "");
        env.put("REDIS_URL", redisUrl);
        env.put("MQTT_PORT", String.valueOf(settings.mqttPort()));
        // MQTT over WebSocket for the console's client page, unless the caller chose a port (0 turns it off)
        env.put("MQTT_WS_PORT", System.getenv().getOrDefault("MQTT_WS_PORT", String.valueOf(settings.webSocketPort())));
        // ... which the console's page opens from the console's own origin (another port): allowed, unless the caller
        // chose the origins (the transport's default accepts only same-origin pages).
        env.put(
                "TRIBUTARY_WEBSOCKET_ALLOWED_ORIGINS",
                System.getenv().getOrDefault("TRIBUTARY_WEBSOCKET_ALLOWED_ORIGINS", settings.consoleOrigins()));
        env.put("TRIBUTARY_NODE_ID", "node-1");
        // session-service's internal API port, not its REST port, which answers 404 to /internal/**.
        env.put("SESSION_SERVICE_URL", "http://" + settings.localAddress() + ":" + settings.sessionInternalPort());
        // The quick start lets clients in without credentials (session-service logs a loud warning), unless the
        // caller says otherwise; the services' own default, for production, is to refuse them.
        env.put("TRIBUTARY_AUTH_ANONYMOUS", String.valueOf(settings.anonymous()));
        // Anonymous access on the network is an open broker: the listeners then stay on loopback unless the caller
        // chose BIND_ADDRESS (QuickstartSettings). Spring Boot reads SERVER_ADDRESS for the HTTP listener.
        env.put("MQTT_HOST", settings.bindAddress());
        env.put("SERVER_ADDRESS", settings.bindAddress());
        // On one machine every client, load generators included, comes from 127.0.0.1: a per-address connection
        // rate would throttle them all together. Off unless the caller sets it; the node-wide rate still applies.
        env.put(
                "MQTT_MAX_CONNECTION_RATE_PER_IP",
                System.getenv().getOrDefault("MQTT_MAX_CONNECTION_RATE_PER_IP", "0"));
        // Likewise for failed authentications: counted per (user name or client id, address), not per address.
        env.put(
                "TRIBUTARY_AUTH_FAILURE_BACK_OFF_PER_ADDRESS",
                System.getenv().getOrDefault("TRIBUTARY_AUTH_FAILURE_BACK_OFF_PER_ADDRESS", "0"));
        // The first admin of the REST API: its password generated once per data directory (AdminPassword), printed
        // by the banner, so it stays right across restarts on the directory where that admin is kept.
        env.put("TRIBUTARY_ADMIN_USER", adminUser());
        env.put("TRIBUTARY_ADMIN_PASSWORD", adminPassword().value());
        return env;
    }

    /** User name of the first REST API admin: {@code TRIBUTARY_ADMIN_USER}, else {@code admin}. */
    static String adminUser() {
        return System.getenv().getOrDefault("TRIBUTARY_ADMIN_USER", "admin");
    }

    /** Its password ({@link AdminPassword}), read or generated on first use. */
    synchronized AdminPassword adminPassword() {
        if (adminPassword == null) {
            adminPassword = AdminPassword.of(System.getenv(), settings.dataDir());
        }
        return adminPassword;
    }

    private JavaMainProcess.Builder infra(String name, String mainClass, String heap) {
        return JavaMainProcess.builder(name, mainClass)
                .heap(heap)
                .logFile(log(name))
                .echo(settings.verbose())
                .detached(true)
                .stopOnJvmExit(false);
    }

    /** Registers before starting, so a Ctrl-C during startup stops a half-started process too. */
    private <T extends ChildProcess> T register(T process) {
        if (stopping) {
            throw new IllegalStateException("stopping");
        }
        started.add(process);
        return process;
    }

    private Path log(String name) {
        return settings.logsDir().resolve(name + ".log");
    }
}
