package io.tributary.devstack.quickstart;

import io.tributary.devstack.net.Ports;
import io.tributary.devstack.redis.RedisCredentials;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * {@code bin/quickstart}: the whole of Tributary on one machine with nothing installed but a JDK. Starts embedded
 * Kafka, PostgreSQL and Redis, then the three services from their jars, prints where everything listens, and stops
 * it all, in reverse order, on Ctrl-C or SIGTERM. See {@link QuickstartSettings} for the environment variables.
 */
public final class QuickstartMain {

    private static final String[] SERVICES = {
        QuickstartStack.SESSION, QuickstartStack.ROUTING, QuickstartStack.TRANSPORT
    };

    private QuickstartMain() {}

    public static void main(String[] args) throws InterruptedException {
        // Before any logger exists: the quickstart talks through Console; libraries only speak up when it matters.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        Console console = new Console();
        QuickstartSettings settings;
        Map<String, Path> jars;
        try {
            settings = QuickstartSettings.from(System.getenv(), args);
            if (!settings.infraOnly() && !System.getenv().containsKey("MQTT_PORT")) {
                // Another broker (often a system Mosquitto) holding 1883 should not stop a first try: move aside,
                // loudly. An MQTT_PORT the user chose is never changed.
                int free = settings.mqttPortOrNextFree(Ports::isFree);
                if (free != settings.mqttPort()) {
                    console.line("quickstart: port " + settings.mqttPort() + " (MQTT) is in use, using " + free
                            + " instead (set MQTT_PORT to choose)");
                    settings = settings.withMqttPort(free);
                }
            }
            jars = settings.infraOnly() ? Map.of() : serviceJars(settings);
            checkPorts(settings);
        } catch (IllegalArgumentException | IllegalStateException e) {
            console.line("quickstart: " + e.getMessage());
            System.exit(2);
            return;
        }

        console.line("Tributary quickstart: data in " + settings.dataDir() + ", logs in " + settings.logsDir());
        QuickstartStack stack = new QuickstartStack(settings, console);
        Runtime.getRuntime().addShutdownHook(new Thread(stack::stop, "quickstart-stop"));
        try {
            stack.start(jars);
        } catch (Exception e) {
            if (!stack.isStopping()) {
                console.line("");
                console.line("quickstart: startup failed: " + e.getMessage());
                System.exit(1);
            }
            return;
        }
        printWhereItListens(console, settings, stack);
        watch(stack);
    }

    /** Blocks while everything runs; a process that ends on its own is restarted with back-off, loudly. */
    private static void watch(QuickstartStack stack) throws InterruptedException {
        while (!stack.isStopping()) {
            TimeUnit.SECONDS.sleep(1);
            stack.restartCrashed();
        }
    }

    private static Map<String, Path> serviceJars(QuickstartSettings settings) {
        Map<String, Path> jars = new LinkedHashMap<>();
        List<String> missing = new ArrayList<>();
        for (String module : SERVICES) {
            Optional<Path> jar = ServiceJars.find(settings.home(), module);
            if (jar.isPresent()) {
                jars.put(module, jar.get());
            } else {
                missing.add("  " + ServiceJars.expected(settings.home(), module));
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("service jars not found:\n" + String.join("\n", missing)
                    + "\nBuild them from the repository root with ./mvnw -B -DskipTests package (bin/quickstart does"
                    + " this when they are missing), or set TRIBUTARY_HOME to the repository root.");
        }
        return jars;
    }

    /** Every port is checked before anything starts, and all conflicts are reported at once. */
    private static void checkPorts(QuickstartSettings settings) {
        List<String> conflicts = new ArrayList<>();
        check(conflicts, settings.kafkaPort(), "Kafka", "KAFKA_PORT");
        check(conflicts, settings.kafkaControllerPort(), "Kafka controller", "KAFKA_CONTROLLER_PORT");
        check(conflicts, settings.postgresPort(), "PostgreSQL", "POSTGRES_PORT");
        check(conflicts, settings.redisPort(), "Redis", "REDIS_PORT");
        if (!settings.infraOnly()) {
            check(conflicts, settings.mqttPort(), "MQTT", "MQTT_PORT");
            check(conflicts, settings.httpPort(), "session-service HTTP", "HTTP_PORT");
            check(
                    conflicts,
                    settings.transportManagementPort(),
                    "transport-service management = HTTP_PORT+1",
                    "HTTP_PORT");
            check(conflicts, settings.routingManagementPort(), "routing-service management = HTTP_PORT+2", "HTTP_PORT");
            check(conflicts, settings.webSocketPort(), "MQTT over WebSocket = HTTP_PORT+3", "HTTP_PORT");
            check(conflicts, settings.sessionManagementPort(), "session-service management = HTTP_PORT+5", "HTTP_PORT");
            check(conflicts, settings.sessionInternalPort(), "session-service internal API = HTTP_PORT+6", "HTTP_PORT");
        }
        if (!conflicts.isEmpty()) {
            throw new IllegalStateException(String.join("\nquickstart: ", conflicts));
        }
    }

    private static void check(List<String> conflicts, int port, String what, String envVariable) {
        try {
            Ports.requireFree(port, what, envVariable);
        } catch (Ports.PortInUseException e) {
            conflicts.add(e.getMessage());
        }
    }

    /** Who can connect: the first thing to know before leaving a broker running. */
    static String accessLine(QuickstartSettings settings) {
        if (!settings.anonymous()) {
            return "listeners on " + settings.bindAddress() + "; MQTT clients need credentials"
                    + " (TRIBUTARY_AUTH_ANONYMOUS=false)";
        }
        if (settings.loopbackOnly()) {
            return "anonymous MQTT clients allowed, so the listeners are on " + settings.bindAddress()
                    + " only (this machine). BIND_ADDRESS=0.0.0.0 opens them to the network; with"
                    + " TRIBUTARY_AUTH_ANONYMOUS=false clients need credentials";
        }
        return "WARNING: anonymous MQTT clients allowed from the network on " + settings.bindAddress()
                + " (BIND_ADDRESS): anyone who reaches this machine can publish and subscribe."
                + " Set TRIBUTARY_AUTH_ANONYMOUS=false and add credentials in the console";
    }

    private static void printWhereItListens(Console console, QuickstartSettings settings, QuickstartStack stack) {
        console.line("");
        if (settings.infraOnly()) {
            console.line("Tributary infrastructure is running (--infra-only: no services started).");
        } else {
            String host = settings.localAddress();
            console.line("Tributary is running.");
            console.line("  MQTT broker         mqtt://" + host + ":" + settings.mqttPort()
                    + "   (e.g. mosquitto_sub -h " + host + " -p " + settings.mqttPort() + " -t '#' -v)");
            console.line("  Admin console       http://" + host + ":" + settings.httpPort()
                    + "/console/   (sign in as below)");
            console.line("  MQTT over WebSocket ws://" + host + ":" + settings.webSocketPort() + "/mqtt");
            console.line("  REST API            http://" + host + ":" + settings.httpPort() + "   (session-service)");
            AdminPassword admin = stack.adminPassword();
            String file = admin.file() == null ? null : admin.file().toString();
            console.line("  REST API admin      user " + QuickstartStack.adminUser() + ", password " + admin.value()
                    + (file == null ? "   (TRIBUTARY_ADMIN_PASSWORD)" : "   (kept in " + file + ")"));
            if (admin.formerFixed()) {
                console.line("                      WARNING: this data directory's admin has the former fixed password"
                        + " " + AdminPassword.FORMER_FIXED + ", known to anyone: create another admin (POST"
                        + " /api/v1/admin/users) and delete this one, or start on a new DATA_DIR");
            }
            String password = file == null ? "$TRIBUTARY_ADMIN_PASSWORD" : "$(cat " + file + ")";
            console.line("                      TOKEN=$(curl -s -X POST http://" + host + ":" + settings.httpPort()
                    + "/api/v1/admin/tokens -H 'Content-Type: application/json' -d \"{\\\"username\\\":\\\""
                    + QuickstartStack.adminUser() + "\\\",\\\"password\\\":\\\"" + password
                    + "\\\"}\" | sed 's/.*\"token\":\"\\([^\"]*\\)\".*/\\1/')");
            console.line("  Prometheus metrics  http://" + host + ":" + settings.sessionManagementPort()
                    + "/actuator/prometheus  (session)");
            console.line("                      http://" + host + ":" + settings.transportManagementPort()
                    + "/actuator/prometheus  (transport)");
            console.line("                      http://" + host + ":" + settings.routingManagementPort()
                    + "/actuator/prometheus  (routing)");
            console.line("  Access              " + accessLine(settings));
        }
        console.line("  Kafka               " + settings.kafkaBootstrapServers());
        console.line("  PostgreSQL          " + stack.postgresUrl() + "   (user postgres, no password)");
        console.line(
                "  Redis               " + stack.redisAddress() + "   (user " + RedisCredentials.USER + ", password in "
                        + RedisCredentials.passwordFile(settings.dataDir().resolve("redis")) + ")");
        console.line(
                "  Data                " + settings.dataDir()
                        + (settings.postgresFsync()
                                ? "   (PostgreSQL commits fsynced)"
                                : "   (POSTGRES_FSYNC=false: PostgreSQL does not fsync, a crash or power loss can corrupt it)"));
        console.line("  Logs                " + settings.logsDir());
        console.line("Press Ctrl-C to stop.");
    }
}
