package io.tributary.deploy.services;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one service reads from its environment, from its own application.yml.
 *
 * @param module the Maven module (transport-service, ...)
 * @param image the image repository its Jib configuration names (tributary/transport-service)
 * @param variables every environment variable its configuration reads, with the default ("" when none)
 * @param topicVariables the variables of the shared topic layout (under a {@code topics} key)
 * @param shutdownPhaseSeconds Spring's timeout per graceful shutdown phase
 * @param sourceRoot where its Java sources are (metric names, main class)
 */
public record ServiceSettings(
        String module,
        String image,
        Map<String, String> variables,
        Set<String> topicVariables,
        int shutdownPhaseSeconds,
        java.nio.file.Path sourceRoot) {

    public boolean reads(String variable) {
        return variables.containsKey(variable);
    }

    /**
     * Variables a service takes only through another's value: {@code REDIS_PASSWORD}, which {@code REDIS_URL} names
     * as {@code ${REDIS_PASSWORD}} where Redis needs it. The manifests shared by in-cluster and managed stores give it
     * to every service (from an optional Secret key) whether or not the managed Redis's URL names it.
     */
    static final Map<String, String> READ_THROUGH = Map.of("REDIS_PASSWORD", "REDIS_URL");

    /**
     * The in-cluster Kafka's SCRAM password of a service, which its {@code TRIBUTARY_KAFKA_PROPERTIES_SASL_JAAS_CONFIG}
     * names: the Kubernetes manifests shared by in-cluster and managed stores give it from an optional Secret key
     * whether or not a JAAS line names it, as {@code REDIS_PASSWORD}.
     */
    static final java.util.regex.Pattern KAFKA_PASSWORD =
            java.util.regex.Pattern.compile("KAFKA_(TRANSPORT|ROUTING|SESSION)_PASSWORD");

    /**
     * Whether a deployment's {@code variable} is used: the service reads it, or the value of a variable it reads
     * names it as {@code ${variable}}, which Spring resolves at start-up ({@code REDIS_URL} naming
     * {@code REDIS_PASSWORD}, which comes from a secret).
     */
    public boolean uses(Map<String, String> environment, String variable) {
        if (takes(variable)
                || reads(READ_THROUGH.getOrDefault(variable, ""))
                || KAFKA_PASSWORD.matcher(variable).matches()) {
            return true;
        }
        String reference = "${" + variable + "}";
        return environment.entrySet().stream()
                .anyMatch(e -> takes(e.getKey())
                        && e.getValue() != null
                        && e.getValue().contains(reference));
    }

    /**
     * The environment form of the Kafka client pass-through every service binds (common KafkaClientProperties,
     * {@code tributary.kafka.properties.*}): any Kafka property, so no application.yml placeholder names it.
     */
    public static final String KAFKA_PASS_THROUGH = "TRIBUTARY_KAFKA_PROPERTIES_";

    /** Read from application.yml, or a Kafka client property of the pass-through. */
    private boolean takes(String variable) {
        return reads(variable) || variable.startsWith(KAFKA_PASS_THROUGH);
    }

    public String defaultOf(String variable) {
        String value = variables.get(variable);
        if (value == null) {
            throw new IllegalArgumentException(module + " does not read " + variable);
        }
        return value;
    }

    /** The value a deployment gives the service: its own setting, else the application.yml default. */
    public String effective(Map<String, String> environment, String variable) {
        String value = environment.get(variable);
        return value != null ? value : defaultOf(variable);
    }

    /** The actuator's port: health probes, load balancer checks, Prometheus. Every service has one. */
    public int managementPort(Map<String, String> environment) {
        return Integer.parseInt(effective(environment, "MANAGEMENT_PORT"));
    }

    /**
     * session-service's internal API port, the one {@code SESSION_SERVICE_URL} of the transport and routing nodes
     * must name; empty for a service without one.
     */
    public java.util.OptionalInt internalApiPort(Map<String, String> environment) {
        return reads("INTERNAL_API_PORT")
                ? java.util.OptionalInt.of(Integer.parseInt(effective(environment, "INTERNAL_API_PORT")))
                : java.util.OptionalInt.empty();
    }

    /**
     * The ports only other parts of the deployment may reach: the management port and the internal API's. No host
     * port (compose) nor public Service may publish them (issue 34, "One port for everything").
     */
    public Set<Integer> privatePorts(Map<String, String> environment) {
        Set<Integer> ports = new TreeSet<>();
        ports.add(managementPort(environment));
        internalApiPort(environment).ifPresent(ports::add);
        return ports;
    }

    /** Every TCP port the service listens on over HTTP: REST API (session-service), internal API, management. */
    public Set<Integer> httpPorts(Map<String, String> environment) {
        Set<Integer> ports = new TreeSet<>(privatePorts(environment));
        if (reads("HTTP_PORT")) {
            ports.add(Integer.parseInt(effective(environment, "HTTP_PORT")));
        }
        return ports;
    }

    /**
     * Empty defaults that switch a feature off (TLS without certificate files; JWT key sources, unused while
     * TRIBUTARY_JWT_ENABLED is false, and its issuer / audience, required only when it is true; the anonymous ACL,
     * unused while TRIBUTARY_AUTH_ANONYMOUS is false; the Server Reference of a draining transport node, 0x8B without one), not
     * secrets to be filled in.
     */
    static final Set<String> OFF_WHEN_EMPTY = Set.of(
            "MQTT_TLS_CERT",
            "MQTT_TLS_KEY",
            "MQTT_TLS_CA",
            "TRIBUTARY_JWT_HMAC_SECRET",
            "TRIBUTARY_JWT_PUBLIC_KEYS",
            "TRIBUTARY_JWT_JWKS_FILE",
            "TRIBUTARY_JWT_ISSUER",
            "TRIBUTARY_JWT_AUDIENCE",
            "TRIBUTARY_AUTH_ANONYMOUS_ACL_PUBLISH",
            "TRIBUTARY_AUTH_ANONYMOUS_ACL_SUBSCRIBE",
            "MQTT_SERVER_REFERENCE",
            // Empty = a PROXY protocol header is taken from any peer (docs/configuration.md).
            "TRIBUTARY_PROXY_PROTOCOL_TRUSTED",
            // Empty = only same-origin web pages may open MQTT over WebSocket (docs/securing.md).
            "TRIBUTARY_WEBSOCKET_ALLOWED_ORIGINS",
            // Tracing is off by default; the endpoint is needed, and checked at start, only when it is enabled.
            "TRIBUTARY_TRACING_ENDPOINT",
            // Empty = dynamic group membership, the right choice for a Deployment whose pod names change.
            "TRIBUTARY_KAFKA_GROUP_INSTANCE_ID");

    /**
     * Variables a deployment must set: defaults that only make sense on a developer machine (localhost), are
     * empty (a password), or derive from the host (the node id from HOSTNAME).
     */
    public Set<String> mustBeSet() {
        Set<String> required = new TreeSet<>();
        variables.forEach((name, fallback) -> {
            if (name.equals("HOSTNAME") || OFF_WHEN_EMPTY.contains(name)) {
                return;
            }
            if (fallback.isEmpty() || fallback.contains("localhost") || fallback.contains("${")) {
                required.add(name);
            }
        });
        return required;
    }

    @Override
    public String toString() {
        return module;
    }
}
