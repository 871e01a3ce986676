package io.tributary.common.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class KafkaClientPropertiesTest {

    private static final String JAAS = "org.apache.kafka.common.security.scram.ScramLoginModule required "
            + "username=\"tributary\" password=\"s3cret\";";

    private static KafkaClientProperties scram() {
        return new KafkaClientProperties(Map.of(
                "security.protocol",
                "SASL_SSL",
                "sasl.mechanism",
                "SCRAM-SHA-512",
                "sasl.jaas.config",
                JAAS,
                "ssl.truststore.location",
                "/etc/kafka/truststore.jks"));
    }

    @Test
    void pass_through_reaches_every_kind_of_client_beside_the_service_settings() {
        KafkaClients clients = new KafkaClients("b-1.example:9096", scram());

        Map<String, Object> producer = clients.producerConfig(
                Map.of(ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true));
        Map<String, Object> consumer = clients.consumerConfig(Map.of(ConsumerConfig.GROUP_ID_CONFIG, "g"));
        Map<String, Object> admin = clients.adminConfig(Map.of(AdminClientConfig.CLIENT_ID_CONFIG, "a"));

        for (Map<String, Object> config : java.util.List.of(producer, consumer, admin)) {
            assertThat(config)
                    .containsEntry("security.protocol", "SASL_SSL")
                    .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                    .containsEntry("sasl.jaas.config", JAAS)
                    .containsEntry("ssl.truststore.location", "/etc/kafka/truststore.jks")
                    .containsEntry("bootstrap.servers", "b-1.example:9096");
        }
        assertThat(producer)
                .containsEntry(ProducerConfig.ACKS_CONFIG, "all")
                .containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true)
                .containsEntry(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class)
                .containsEntry(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        assertThat(consumer)
                .containsEntry(ConsumerConfig.GROUP_ID_CONFIG, "g")
                .containsEntry(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class)
                .containsEntry(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        assertThat(admin).containsEntry(AdminClientConfig.CLIENT_ID_CONFIG, "a");
    }

    @Test
    void what_the_service_relies_on_cannot_be_passed_through_and_the_refusal_names_each_key() {
        Map<String, String> given = new HashMap<>();
        given.put("sasl.mechanism", "PLAIN");
        given.put("value.serializer", StringSerializer.class.getName());
        given.put("enable.idempotence", "false");
        given.put("acks", "1");
        given.put("enable.auto.commit", "true");
        given.put("bootstrap.servers", "elsewhere:9092");

        assertThatThrownBy(() -> new KafkaClientProperties(given))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("tributary.kafka.properties may not set what Tributary sets")
                .hasMessageContaining("value.serializer (records are raw bytes")
                .hasMessageContaining("enable.idempotence (retries must not duplicate")
                .hasMessageContaining("acks (")
                .hasMessageContaining("enable.auto.commit (")
                .hasMessageContaining("bootstrap.servers (set by KAFKA_BOOTSTRAP_SERVERS)")
                .hasMessageNotContaining("sasl.mechanism");
    }

    @Test
    void every_setting_with_a_typed_counterpart_is_refused_too() {
        for (String key : new String[] {
            "linger.ms",
            "compression.type",
            "delivery.timeout.ms",
            "request.timeout.ms",
            "max.block.ms",
            "default.api.timeout.ms",
            "max.poll.records",
            "buffer.memory",
            "client.id",
            "group.id",
            "group.instance.id",
            "group.protocol",
            "isolation.level",
            "transactional.id",
            "transaction.timeout.ms",
            "auto.offset.reset",
            "key.deserializer"
        }) {
            assertThatThrownBy(() -> new KafkaClientProperties(Map.of(key, "1")))
                    .as(key)
                    .hasMessageContaining(key + " (");
        }
    }

    @Test
    void a_key_the_service_sets_that_the_pass_through_also_names_is_refused_not_overridden() {
        KafkaClientProperties passThrough = new KafkaClientProperties(Map.of("fetch.max.bytes", "1048576"));

        assertThatThrownBy(() -> passThrough.clientConfig("k:9092", Map.of("fetch.max.bytes", 52428800)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tributary.kafka.properties names fetch.max.bytes, which this Kafka client sets itself");
    }

    @Test
    void values_never_appear_in_messages_or_logs() {
        assertThat(scram().toString()).doesNotContain("s3cret").contains("sasl.jaas.config");
        assertThatThrownBy(() -> new KafkaClientProperties(Map.of("sasl.jaas.config", JAAS, "acks", "s3cret")))
                .hasMessageNotContaining("s3cret");
    }

    @Test
    void names_are_trimmed_and_an_empty_name_is_refused() {
        assertThat(new KafkaClientProperties(Map.of(" security.protocol ", "SSL")).properties())
                .containsOnlyKeys("security.protocol");
        assertThatThrownBy(() -> new KafkaClientProperties(Map.of(" ", "x"))).hasMessageContaining("(empty name)");
        assertThat(new KafkaClientProperties(null).properties()).isEmpty();
    }

    @Test
    void kafka_accepts_the_merged_configuration_of_a_producer() {
        // A real producer checks every value's type: the string values of the pass-through must parse.
        KafkaClients clients = new KafkaClients(
                "127.0.0.1:1",
                new KafkaClientProperties(Map.of(
                        "security.protocol",
                        "PLAINTEXT",
                        "metadata.max.age.ms",
                        "60000",
                        "reconnect.backoff.max.ms",
                        "2000")));
        try (KafkaProducer<byte[], byte[]> producer = clients.producer(
                Map.of(ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.MAX_BLOCK_MS_CONFIG, 1),
                Duration.ofMillis(100))) {
            assertThat(producer.metrics()).isNotEmpty();
        }
    }
}
