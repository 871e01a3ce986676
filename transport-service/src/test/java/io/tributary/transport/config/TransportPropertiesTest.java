package io.tributary.transport.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.kafka.TopicLayout;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

/** The node-wide limit of bytes waiting for Kafka must stay below the producer's buffer, or a send could block. */
class TransportPropertiesTest {

    private final Validator validator =
            Validation.buildDefaultValidatorFactory().getValidator();

    private static TransportProperties.Kafka kafka(DataSize maxPendingBytes) {
        return new TransportProperties.Kafka(
                "127.0.0.1:9092",
                TopicLayout.singleBroker(1, 1, 1, Duration.ofHours(1)),
                Duration.ofMillis(200),
                Duration.ofSeconds(30),
                1,
                DataSize.ofMegabytes(1),
                maxPendingBytes,
                org.apache.kafka.common.record.CompressionType.LZ4);
    }

    @Test
    void max_pending_bytes_must_be_below_the_producer_buffer() {
        assertThat(validator.validate(kafka(DataSize.ofMegabytes(16)))).isEmpty();
        assertThat(validator.validate(kafka(DataSize.ofMegabytes(32))))
                .extracting(ConstraintViolation::getMessage)
                .containsExactly("max-pending-bytes must be below the producer's buffer.memory (32 MiB)");
    }

    private static TransportProperties.Tls tls(
            String cert, String key, TransportProperties.Tls.ClientAuthMode auth, String ca) {
        return new TransportProperties.Tls(
                8883,
                cert,
                key,
                auth,
                ca,
                Duration.ofSeconds(10),
                Duration.ofSeconds(10),
                TransportProperties.Tls.Provider.AUTO,
                100,
                Duration.ofHours(1));
    }

    @Test
    void tls_needs_certificate_and_key_together_and_a_ca_for_client_certificates() {
        var none = TransportProperties.Tls.ClientAuthMode.NONE;
        var required = TransportProperties.Tls.ClientAuthMode.REQUIRED;
        assertThat(validator.validate(TransportProperties.Tls.off())).isEmpty();
        assertThat(validator.validate(tls("/c.pem", "/k.pem", none, null))).isEmpty();
        assertThat(validator.validate(tls("/c.pem", null, none, null)))
                .extracting(ConstraintViolation::getMessage)
                .containsExactly(
                        "tls: a certificate (MQTT_TLS_CERT) needs its private key (MQTT_TLS_KEY) and vice versa");
        assertThat(validator.validate(tls("/c.pem", "/k.pem", required, "")))
                .extracting(ConstraintViolation::getMessage)
                .containsExactly("tls: client-auth optional or required needs a CA bundle (MQTT_TLS_CA)");
        assertThat(validator.validate(tls("/c.pem", "/k.pem", required, "/ca.pem")))
                .isEmpty();
        assertThat(TransportProperties.Tls.off().enabled()).isFalse();
        assertThat(new TransportProperties.WebSocket(8084, 0, "/mqtt").secureEnabled(TransportProperties.Tls.off()))
                .isFalse();
        assertThat(new TransportProperties.WebSocket(null, 8084, "/mqtt").secureEnabled(TransportProperties.Tls.off()))
                .isFalse();
        assertThat(new TransportProperties.WebSocket(null, 8084, "/mqtt")
                        .secureEnabled(tls("/c.pem", "/k.pem", none, null)))
                .isTrue();
        assertThat(validator.validate(new TransportProperties.WebSocket(8083, 8084, "mqtt")))
                .extracting(v -> v.getPropertyPath().toString())
                .containsExactly("path");
    }

    private static TransportProperties node(boolean plain, TransportProperties.Tls tls, Integer wsPort) {
        return new TransportProperties(
                "node-1",
                new TransportProperties.Mqtt(
                        "127.0.0.1",
                        8883,
                        plain,
                        1 << 20,
                        Duration.ofSeconds(10),
                        60,
                        10,
                        10,
                        10,
                        10,
                        1,
                        DataSize.ofMegabytes(1),
                        DataSize.ofMegabytes(64),
                        io.tributary.transport.delivery.SlowConsumerPolicy.DROP),
                kafka(DataSize.ofMegabytes(16)),
                TransportProperties.Session.of(
                        java.net.URI.create("http://session:8080"),
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(1),
                        "internal-token-0123456789"),
                new TransportProperties.Redis("redis://redis:6379", Duration.ofSeconds(2)),
                tls,
                new TransportProperties.WebSocket(wsPort, null, "/mqtt"));
    }

    private static java.util.List<String> messages(TransportProperties properties) {
        return Validation.buildDefaultValidatorFactory().getValidator().validate(properties).stream()
                .map(ConstraintViolation::getMessage)
                .toList();
    }

    @Test
    void the_plain_listener_may_be_off_only_when_another_listener_is_on() {
        var none = TransportProperties.Tls.ClientAuthMode.NONE;
        String noListener = "MQTT_PLAIN_ENABLED=false (tributary.transport.mqtt.plain-enabled) leaves the node no"
                + " listener: turn on MQTT over TLS (MQTT_TLS_CERT and MQTT_TLS_KEY) or a WebSocket listener";
        assertThat(messages(node(true, TransportProperties.Tls.off(), null))).isEmpty();
        assertThat(messages(node(false, TransportProperties.Tls.off(), null))).containsExactly(noListener);
        // Off, its port is free for another listener: the plain port here is TLS's 8883, no clash.
        assertThat(messages(node(false, tls("/c.pem", "/k.pem", none, null), null)))
                .isEmpty();
        assertThat(messages(node(true, tls("/c.pem", "/k.pem", none, null), null)))
                .containsExactly("the MQTT, TLS, WebSocket and secure WebSocket listeners need distinct ports");
        assertThat(messages(node(false, TransportProperties.Tls.off(), 8083))).isEmpty();
    }

    @Test
    void secretsAreNeverPrinted() {
        TransportProperties.Session session = TransportProperties.Session.of(
                java.net.URI.create("http://session:8080"),
                Duration.ofSeconds(5),
                Duration.ofSeconds(1),
                "internal-token-0123456789");
        assertThat(session.toString())
                .doesNotContain("internal-token-0123456789")
                .contains("http://session:8080");
        TransportProperties.Redis redis =
                new TransportProperties.Redis("redis://:redis-pass@redis:6379", Duration.ofSeconds(2));
        assertThat(redis.toString()).doesNotContain("redis-pass").contains("redis:6379");
    }
}
