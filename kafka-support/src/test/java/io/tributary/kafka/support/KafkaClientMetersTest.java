package io.tributary.kafka.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

/** A real consumer (no broker needed: its metrics exist from construction). */
class KafkaClientMetersTest {

    @Test
    void a_clients_metrics_are_meters_tagged_with_its_id_until_the_binding_is_closed() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                "127.0.0.1:1",
                ConsumerConfig.CLIENT_ID_CONFIG,
                "meters-test",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class))) {
            AutoCloseable binding = KafkaClientMeters.bind(registry, consumer);

            assertThat(kafkaMeters(registry))
                    .isNotEmpty()
                    .allSatisfy(m -> assertThat(m.getId().getTag("client.id")).isEqualTo("meters-test"));

            binding.close();
            assertThat(kafkaMeters(registry)).isEmpty();
        }
    }

    @Test
    void anything_but_a_producer_or_consumer_is_refused() {
        assertThatThrownBy(() -> KafkaClientMeters.bind(new SimpleMeterRegistry(), "not a client"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static java.util.List<Meter> kafkaMeters(SimpleMeterRegistry registry) {
        return registry.getMeters().stream()
                .filter(m -> m.getId().getName().startsWith("kafka."))
                .toList();
    }
}
