package io.tributary.devstack.quickstart;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * What the quickstart starts where, from environment variables (and two flags). Relative paths are resolved
 * against the working directory, which bin/quickstart sets to the repository root.
 *
 * @param home            repository root holding the service jars ({@code TRIBUTARY_HOME}, default: working dir)
 * @param dataDir         data of Kafka, PostgreSQL, Redis and the logs ({@code DATA_DIR}, default ./data)
 * @param mqttPort        MQTT listener of transport-service ({@code MQTT_PORT}, 1883)
 * @param httpPort        session-service REST and admin console ({@code HTTP_PORT}, 8080); the other HTTP ports follow
 *                        it: the transport's management port +1, routing's +2, MQTT over WebSocket +3,
 *                        session-service's management port +5 and its internal API +6 (+4 is left to the
 *                        transport's MQTT over secure WebSocket, 8084 by default)
 * @param kafkaPort       Kafka client port ({@code KAFKA_PORT}, 29092)
 * @param kafkaControllerPort KRaft controller port ({@code KAFKA_CONTROLLER_PORT}, 29093)
 * @param postgresPort    PostgreSQL port ({@code POSTGRES_PORT}, 25432)
 * @param redisPort       Redis port ({@code REDIS_PORT}, 26379)
 * @param publishPartitions partitions of tributary.publish ({@code TRIBUTARY_PUBLISH_PARTITIONS}, 4)
 * @param serviceHeap     -Xmx of each service ({@code SERVICE_HEAP}, 512m)
 * @param anonymous       MQTT clients may connect without credentials ({@code TRIBUTARY_AUTH_ANONYMOUS}, true here;
 *                        the services' own default, for production, is false)
 * @param bindAddress     address the MQTT, WebSocket and HTTP listeners bind ({@code BIND_ADDRESS}); default
 *                        127.0.0.1 while anonymous clients are let in (as Mosquitto 2 does without a listener
 *                        configured), else 0.0.0.0
 * @param bindAddressChosen whether {@code BIND_ADDRESS} was given (the banner warns about anonymous network access)
 * @param postgresFsync   crash-safe PostgreSQL commits, fsync and synchronous_commit on ({@code POSTGRES_FSYNC}, true)
 * @param infraOnly       start Kafka, PostgreSQL and Redis only ({@code --infra-only} or {@code QUICKSTART_INFRA_ONLY})
 * @param verbose         echo every process's log to the console ({@code --verbose} or {@code QUICKSTART_VERBOSE})
 */
record QuickstartSettings(
        Path home,
        Path dataDir,
        int mqttPort,
        int httpPort,
        int kafkaPort,
        int kafkaControllerPort,
        int postgresPort,
        int redisPort,
        int publishPartitions,
        String serviceHeap,
        boolean anonymous,
        String bindAddress,
        boolean bindAddressChosen,
        boolean postgresFsync,
        boolean infraOnly,
        boolean verbose) {

    static final String LOOPBACK = "127.0.0.1";
    static final String ALL_INTERFACES = "0.0.0.0";

    static QuickstartSettings from(Map<String, String> env, String[] args) {
        List<String> flags = Arrays.asList(args);
        for (String flag : flags) {
            if (!flag.equals("--infra-only") && !flag.equals("--verbose")) {
                throw new IllegalArgumentException("unknown argument " + flag + " (known: --infra-only, --verbose)");
            }
        }
        boolean anonymous = bool(env, "TRIBUTARY_AUTH_ANONYMOUS", true);
        String bindAddress = env.get("BIND_ADDRESS");
        boolean bindAddressChosen = bindAddress != null && !bindAddress.isBlank();
        return new QuickstartSettings(
                Path.of(env.getOrDefault("TRIBUTARY_HOME", "."))
                        .toAbsolutePath()
                        .normalize(),
                Path.of(env.getOrDefault("DATA_DIR", "./data")).toAbsolutePath().normalize(),
                port(env, "MQTT_PORT", 1883),
                port(env, "HTTP_PORT", 8080),
                port(env, "KAFKA_PORT", 29092),
                port(env, "KAFKA_CONTROLLER_PORT", 29093),
                port(env, "POSTGRES_PORT", 25432),
                port(env, "REDIS_PORT", 26379),
                positive(env, "TRIBUTARY_PUBLISH_PARTITIONS", 4),
                env.getOrDefault("SERVICE_HEAP", "512m"),
                anonymous,
                bindAddressChosen ? bindAddress.trim() : anonymous ? LOOPBACK : ALL_INTERFACES,
                bindAddressChosen,
                bool(env, "POSTGRES_FSYNC", true),
                flags.contains("--infra-only") || "true".equalsIgnoreCase(env.get("QUICKSTART_INFRA_ONLY")),
                flags.contains("--verbose") || "true".equalsIgnoreCase(env.get("QUICKSTART_VERBOSE")));
    }

    /** The MQTT port if {@code free} says so, else the first free one of the next 16; the MQTT port if none is. */
    int mqttPortOrNextFree(IntPredicate free) {
        for (int port = mqttPort; port <= mqttPort + 16 && port <= 65535; port++) {
            if (free.test(port)) {
                return port;
            }
        }
        return mqttPort;
    }

    QuickstartSettings withMqttPort(int port) {
        return new QuickstartSettings(
                home,
                dataDir,
                port,
                httpPort,
                kafkaPort,
                kafkaControllerPort,
                postgresPort,
                redisPort,
                publishPartitions,
                serviceHeap,
                anonymous,
                bindAddress,
                bindAddressChosen,
                postgresFsync,
                infraOnly,
                verbose);
    }

    /** The transport's actuator (health, metrics): its only HTTP port. */
    int transportManagementPort() {
        return httpPort + 1;
    }

    /** Routing's actuator: its only HTTP port. */
    int routingManagementPort() {
        return httpPort + 2;
    }

    /** session-service's internal API, which the transport and routing call ({@code SESSION_SERVICE_URL}). */
    int sessionInternalPort() {
        return httpPort + 6;
    }

    /** session-service's actuator, apart from its REST API. */
    int sessionManagementPort() {
        return httpPort + 5;
    }

    /** MQTT over WebSocket of transport-service (8083 by default, as in docker-compose), used by the console's client page. */
    int webSocketPort() {
        return httpPort + 3;
    }

    Path logsDir() {
        return dataDir.resolve("logs");
    }

    String kafkaBootstrapServers() {
        return "127.0.0.1:" + kafkaPort;
    }

    private static int port(Map<String, String> env, String name, int defaultValue) {
        int port = positive(env, name, defaultValue);
        if (port > 65535) {
            throw new IllegalArgumentException(name + " must be a TCP port (1-65535), not " + port);
        }
        return port;
    }

    /** Only reachable from this machine: then the banner's addresses are the only ones that work. */
    boolean loopbackOnly() {
        return bindAddress.equals(LOOPBACK) || bindAddress.equals("localhost") || bindAddress.equals("::1");
    }

    /** Where this machine reaches the listeners: the bind address, or loopback when they bind every interface. */
    String localAddress() {
        return bindAddress.equals(ALL_INTERFACES) || bindAddress.equals("::") || loopbackOnly()
                ? LOOPBACK
                : bindAddress;
    }

    /**
     * The web origins the admin console is opened under ({@code TRIBUTARY_WEBSOCKET_ALLOWED_ORIGINS}): its MQTT client
     * page opens MQTT over WebSocket on {@code HTTP_PORT+3}, another origin than the console's {@code HTTP_PORT}, so
     * the transport must allow it. 127.0.0.1, localhost and [::1], and the bind address when it is a single one; a
     * console opened under another name (a host name on the network) needs the variable set.
     */
    String consoleOrigins() {
        Set<String> hosts = new LinkedHashSet<>(List.of(LOOPBACK, "localhost", "[::1]"));
        if (!localAddress().equals(LOOPBACK)) {
            if (localAddress().matches("[0-9A-Za-z.-]+")) {
                hosts.add(localAddress());
            } else if (localAddress().matches("[0-9A-Fa-f:.]+")) {
                hosts.add("[" + localAddress() + "]");
            }
        }
        return String.join(
                ",", hosts.stream().map(h -> "http://" + h + ":" + httpPort).toList());
    }

    private static boolean bool(Map<String, String> env, String name, boolean defaultValue) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return defaultValue;
        }
        return switch (value.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(name + " must be true or false, not '" + value + "'");
        };
    }

    private static int positive(Map<String, String> env, String name, int defaultValue) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return defaultValue;
        }
        try {
            int parsed = Integer.parseInt(value.trim());
            if (parsed > 0) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(name + " must be a positive number, not '" + value + "'");
    }
}
