package io.tributary.common.kafka;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Kafka client properties an operator passes through, unchanged, to every Kafka client (producer, consumer, admin)
 * of every service: {@code security.protocol}, {@code sasl.*}, {@code ssl.*} and anything else the Kafka clients
 * know, so that Tributary reaches a managed Kafka (TLS, SASL/SCRAM, MSK IAM) without a code change. Every service
 * binds it from {@value #PREFIX}{@code .<kafka property>}, whose environment form is
 * {@code TRIBUTARY_KAFKA_PROPERTIES_<KAFKA PROPERTY, dots as underscores>} (e.g.
 * {@code TRIBUTARY_KAFKA_PROPERTIES_SASL_MECHANISM=SCRAM-SHA-512}), the same variables for all services, as for
 * {@link GroupMembership}.
 *
 * <p>The pass-through cannot change what Tributary relies on: the keys in {@link #reserved()} (serializers,
 * idempotence and acks, group and offset handling, timeouts and buffers that have typed settings) are refused when the
 * settings are bound, so a service fails at start-up naming the key instead of running with a silently different
 * delivery guarantee. Kafka property names are lower case with dots, so every one of them has an environment form.
 *
 * <p>Lives in the contract module because it is one rule for all services: the same environment must mean the same
 * Kafka connection in transport, routing and session-service. Building the clients stays in each service.
 *
 * @param properties Kafka property name to value, as given
 */
public record KafkaClientProperties(Map<String, String> properties) {

    /** The configuration prefix every service binds. */
    public static final String PREFIX = "tributary.kafka.properties";

    /** The keys the pass-through may not set, with the reason given to the operator. */
    private static final Map<String, String> RESERVED = reservedKeys();

    public KafkaClientProperties {
        Map<String, String> copy = new TreeMap<>();
        if (properties != null) {
            properties.forEach((key, value) -> copy.put(key == null ? "" : key.strip(), value == null ? "" : value));
        }
        Map<String, String> refused = new LinkedHashMap<>();
        for (String key : copy.keySet()) {
            if (key.isEmpty()) {
                refused.put("(empty name)", "a Kafka property needs a name");
            } else if (RESERVED.containsKey(key)) {
                refused.put(key, RESERVED.get(key));
            }
        }
        if (!refused.isEmpty()) {
            StringBuilder message =
                    new StringBuilder(PREFIX).append(" may not set what Tributary sets on its Kafka clients; remove:");
            refused.forEach((key, why) ->
                    message.append(' ').append(key).append(" (").append(why).append(");"));
            message.setLength(message.length() - 1);
            throw new IllegalArgumentException(message.toString());
        }
        properties = java.util.Collections.unmodifiableMap(copy);
    }

    /** No pass-through: plaintext to the bootstrap servers, as before. */
    public static KafkaClientProperties none() {
        return new KafkaClientProperties(Map.of());
    }

    /** The keys the pass-through may not set, each with the reason. */
    public static Map<String, String> reserved() {
        return RESERVED;
    }

    /**
     * The configuration of one client: {@code bootstrap.servers}, then the pass-through, then what the service sets
     * for this client. A key of the service's that the pass-through also names is refused rather than overridden
     * either way (the reserved list keeps that from happening at run time; a unit test of each service checks that
     * every key it sets is reserved).
     *
     * @throws IllegalArgumentException when the pass-through names a key the service sets
     */
    public Map<String, Object> clientConfig(String bootstrapServers, Map<String, ?> serviceConfig) {
        Map<String, Object> config = new HashMap<>(properties);
        TreeSet<String> clash = new TreeSet<>(serviceConfig.keySet());
        clash.retainAll(properties.keySet());
        if (!clash.isEmpty()) {
            throw new IllegalArgumentException(
                    PREFIX + " names " + String.join(", ", clash) + ", which this Kafka client sets itself");
        }
        config.putAll(serviceConfig);
        config.put("bootstrap.servers", bootstrapServers);
        return config;
    }

    /** The names only: values carry credentials ({@code sasl.jaas.config}) and are never printed. */
    @Override
    public String toString() {
        return "KafkaClientProperties" + properties.keySet();
    }

    private static Map<String, String> reservedKeys() {
        Map<String, String> r = new TreeMap<>();
        String typed = "a typed setting; see docs/configuration.md";
        r.put("bootstrap.servers", "set by KAFKA_BOOTSTRAP_SERVERS");
        for (String key :
                new String[] {"key.serializer", "value.serializer", "key.deserializer", "value.deserializer"}) {
            r.put(key, "records are raw bytes in Tributary's record format");
        }
        r.put("acks", "a PUBACK means acknowledged by all in-sync replicas");
        r.put("enable.idempotence", "retries must not duplicate or reorder publishes");
        r.put("transactional.id", "set per producer where Tributary uses transactions");
        r.put("transaction.timeout.ms", "set with the transactions that use it");
        r.put("isolation.level", "set per consumer by what it must not see");
        r.put("max.in.flight.requests.per.connection", "ordering of an idempotent producer");
        r.put("retries", "bounded by delivery.timeout.ms, which is " + typed);
        r.put("buffer.memory", "transport nodes keep their unacknowledged bytes below it so a send never blocks");
        for (String key : new String[] {
            "linger.ms",
            "compression.type",
            "delivery.timeout.ms",
            "request.timeout.ms",
            "max.block.ms",
            "default.api.timeout.ms",
            "max.poll.records"
        }) {
            r.put(key, typed);
        }
        r.put("client.id", "names the service and instance in broker logs and quotas");
        for (String key :
                new String[] {"group.id", "group.instance.id", "group.protocol", "partition.assignment.strategy"}) {
            r.put(key, "the consumer groups are Tributary's; see TRIBUTARY_KAFKA_GROUP_*");
        }
        r.put("enable.auto.commit", "offsets are committed only after a batch is handled");
        r.put("auto.offset.reset", "set per consumer by what it must not miss");
        r.put("allow.auto.create.topics", "topics are created with Tributary's layout");
        r.put(
                "fetch.max.wait.ms",
                "set per consumer where a wait at the broker would stall it (replay reads never wait)");
        return java.util.Collections.unmodifiableMap(r);
    }
}
