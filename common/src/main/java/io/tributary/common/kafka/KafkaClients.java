package io.tributary.common.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The one place the services create Kafka clients (a source check in each service's tests keeps it so). The caller
 * keeps the settings its own logic depends on (offset handling, timeouts, acks, client id); this adds where Kafka is
 * and the operator's pass-through properties (TLS, SASL, ...; {@link KafkaClientProperties}), so every producer,
 * consumer and admin client of every service connects the same way. Records are raw bytes everywhere.
 *
 * <p>In the contract module beside {@link GroupMembership} and {@link TopicLayout} because it holds no decision of
 * any service, only the rule by which an operator's settings reach Kafka, and that rule must not differ between the
 * services; each service binds {@link KafkaClientProperties} and builds one of these.
 */
public final class KafkaClients {

    private final String bootstrapServers;
    private final KafkaClientProperties passThrough;

    public KafkaClients(String bootstrapServers, KafkaClientProperties passThrough) {
        this.bootstrapServers = bootstrapServers;
        this.passThrough = passThrough;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public KafkaClientProperties passThrough() {
        return passThrough;
    }

    public KafkaProducer<byte[], byte[]> producer(Map<?, ?> settings) {
        return new KafkaProducer<>(producerConfig(settings));
    }

    /**
     * A producer whose {@code close()} waits at most {@code closeTimeout} for unsent records: Kafka's default waits
     * forever, which with Kafka gone would hang a shutdown.
     */
    public KafkaProducer<byte[], byte[]> producer(Map<?, ?> settings, Duration closeTimeout) {
        return new KafkaProducer<>(producerConfig(settings)) {
            @Override
            public void close() {
                close(closeTimeout);
            }
        };
    }

    public Consumer<byte[], byte[]> consumer(Map<?, ?> settings) {
        return new KafkaConsumer<>(consumerConfig(settings));
    }

    public Admin admin(Map<?, ?> settings) {
        return Admin.create(adminConfig(settings));
    }

    /**
     * Fails when Kafka refuses the credentials of {@code admin} (SASL or TLS), with a message that names the
     * settings to check: such a failure is not transient, and a service that went on would only retry and look hung.
     * Waits at most {@code timeout}; a Kafka that does not answer yet is not an error here (the services wait for
     * Kafka as they did before).
     */
    public void requireAuthenticated(Admin admin, String service, Duration timeout) {
        try {
            admin.describeCluster().clusterId().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AuthenticationException refused) {
                throw new IllegalStateException(
                        "Kafka at " + bootstrapServers + " refused the credentials of "
                                + service + ": " + refused.getMessage() + " (the client's security settings are "
                                + KafkaClientProperties.PREFIX + ".*, in the environment TRIBUTARY_KAFKA_PROPERTIES_*; "
                                + "given: " + passThrough.properties().keySet() + ")",
                        refused);
            }
        } catch (TimeoutException e) {
            // Not up yet, or not reachable: the callers' own retries and health checks deal with that.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking the Kafka credentials", e);
        }
    }

    /** What {@link #producer} hands Kafka. */
    public Map<String, Object> producerConfig(Map<?, ?> settings) {
        Map<String, Object> service = strings(settings);
        service.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        service.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return passThrough.clientConfig(bootstrapServers, service);
    }

    /** What {@link #consumer} hands Kafka. */
    public Map<String, Object> consumerConfig(Map<?, ?> settings) {
        Map<String, Object> service = strings(settings);
        service.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        service.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return passThrough.clientConfig(bootstrapServers, service);
    }

    /** What {@link #admin} hands Kafka. */
    public Map<String, Object> adminConfig(Map<?, ?> settings) {
        return passThrough.clientConfig(bootstrapServers, strings(settings));
    }

    /** Keys as strings: callers pass {@code Properties} or maps. */
    private static Map<String, Object> strings(Map<?, ?> settings) {
        Map<String, Object> out = new HashMap<>();
        settings.forEach((k, v) -> out.put(String.valueOf(k), v));
        return out;
    }
}
