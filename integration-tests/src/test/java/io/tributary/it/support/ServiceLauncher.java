package io.tributary.it.support;

import io.tributary.devstack.process.ServiceProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;

/**
 * Builds the service processes of a {@link TributaryCluster}: every one with the cluster's shared settings (Kafka,
 * Redis) and its role's internal token, session-services and transport nodes with their own on top.
 */
final class ServiceLauncher {

    private final Path workDir;
    private final Engines engines;
    /** Environment every service of this cluster gets on top of the shared settings (e.g. Kafka credentials). */
    private final Map<String, String> serviceEnv;
    /** Environment of one kind of service only, by its jar property (e.g. each one's own Kafka user). */
    private final Map<String, Map<String, String>> envByJar;

    ServiceLauncher(
            Path workDir, Engines engines, Map<String, String> serviceEnv, Map<String, Map<String, String>> envByJar) {
        this.workDir = workDir;
        this.engines = engines;
        this.serviceEnv = Map.copyOf(serviceEnv);
        this.envByJar = Map.copyOf(envByJar);
    }

    /** The jar named by system property {@code jarProperty}, in the form the tests launch it. */
    ServiceJar serviceJar(String jarProperty) {
        String jar = System.getProperty(jarProperty);
        if (jar == null || !Files.isRegularFile(Paths.get(jar))) {
            throw new IllegalStateException("service jar not found (" + jarProperty + "=" + jar
                    + "): run the build from the repository root, e.g. ./mvnw verify");
        }
        return ServiceJar.of(Paths.get(jar));
    }

    ServiceProcess.Builder service(String name, String jarProperty) {
        ServiceJar jar = serviceJar(jarProperty);
        ServiceProcess.Builder builder = ServiceProcess.builder(name, jar.runJar())
                .heap("256m")
                .jvmOption("-XX:+UseSerialGC")
                .jvmOption("-XX:TieredStopAtLevel=1")
                .logFile(log(name))
                .env("KAFKA_BOOTSTRAP_SERVERS", engines.kafkaBootstrapServers())
                .env("TRIBUTARY_PUBLISH_PARTITIONS", 4)
                // C1 only (above): there is little JIT to wait for, and ~40 service starts per run would each
                // pay for it; WarmUpTest turns it on for its own node.
                .env("TRIBUTARY_WARM_UP_ENABLED", false);
        // Every service reaches Redis: session-service for presence and queue lifecycles, routing to append to
        // session queues, transport nodes to read them. Authenticated, as in the shipped deployments.
        RedisEnv.of(engines.redisUrl()).forEach(builder::env);
        internalTokens(jarProperty).forEach(builder::env);
        jar.jvmOptions().forEach(builder::jvmOption);
        serviceEnv.forEach(builder::env);
        envByJar.getOrDefault(jarProperty, Map.of()).forEach(builder::env);
        return builder;
    }

    /**
     * The internal API's tokens, one per calling role as in the shipped deployments: session-service knows both, a
     * transport node and a router present only their own.
     */
    static Map<String, String> internalTokens(String jarProperty) {
        return switch (jarProperty) {
            case "tributary.jars.session" ->
                Map.of(
                        "TRIBUTARY_INTERNAL_TRANSPORT_TOKEN", TributaryCluster.INTERNAL_TOKEN,
                        "TRIBUTARY_INTERNAL_ROUTING_TOKEN", TributaryCluster.ROUTING_TOKEN);
            case "tributary.jars.transport" -> Map.of("TRIBUTARY_INTERNAL_TOKEN", TributaryCluster.INTERNAL_TOKEN);
            case "tributary.jars.routing" -> Map.of("TRIBUTARY_INTERNAL_TOKEN", TributaryCluster.ROUTING_TOKEN);
            default -> throw new IllegalArgumentException("no internal role for " + jarProperty);
        };
    }

    /** A session-service on {@code ports}, on the cluster's PostgreSQL, with the cluster's liveness and first admin. */
    ServiceProcess.Builder session(String name, SessionPorts ports) {
        return ports.applyTo(service(name, "tributary.jars.session"))
                .env("POSTGRES_URL", engines.jdbcUrl())
                .env("POSTGRES_USER", engines.dbUser())
                .env("POSTGRES_PASSWORD", engines.dbPassword())
                .env("NODE_TIMEOUT", TributaryCluster.NODE_TIMEOUT.toMillis() + "ms")
                .env("NODE_CHECK_INTERVAL", TributaryCluster.NODE_CHECK_INTERVAL.toMillis() + "ms")
                // Every test client comes from 127.0.0.1, hostile ones included: a per-address count of failed
                // authentications would let one test's wrong passwords refuse the next test's right ones.
                .env("TRIBUTARY_AUTH_FAILURE_BACK_OFF_PER_ADDRESS", 0)
                // The first admin of the REST API; tests get its token through AdminRequests.
                .env("TRIBUTARY_ADMIN_USER", TributaryCluster.ADMIN_USER)
                .env("TRIBUTARY_ADMIN_PASSWORD", TributaryCluster.ADMIN_PASSWORD);
    }

    /** A transport node on loopback that calls the session-service internal API at {@code sessionInternalUrl}. */
    ServiceProcess.Builder transport(String nodeId, int mqttPort, int managementPort, String sessionInternalUrl) {
        return service(nodeId, "tributary.jars.transport")
                .env("MANAGEMENT_PORT", managementPort)
                .env("MQTT_HOST", "127.0.0.1")
                .env("MQTT_PORT", mqttPort)
                .env("TRIBUTARY_NODE_ID", nodeId)
                .env("SESSION_SERVICE_URL", sessionInternalUrl)
                .env("NODE_HEARTBEAT_INTERVAL", TributaryCluster.HEARTBEAT_INTERVAL.toMillis() + "ms");
    }

    Path log(String name) {
        return workDir.resolve("logs").resolve(name + ".log");
    }
}
