package io.tributary.transport.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

import io.tributary.common.kafka.TopicLayout;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validation;
import jakarta.validation.Validator;

/** The node-wide limit of bytes waiting for Kafka must stay below the producer's buffer, or a send could block. */
class TransportPropertiesTest {

    private final Validator validator = Validation.buildDefaultValidatorFactory().getValidator();

    private static TransportProperties.Kafka kafka(DataSize maxPendingBytes) {
        return new TransportProperties.Kafka("127.0.0.1:9092", new TopicLayout(1, 1, 1, (short) 1,
                Duration.ofHours(1)), Duration.ofMillis(200), Duration.ofSeconds(30), 1, DataSize.ofMegabytes(1),
                maxPendingBytes);
    }

    @Test
    void max_pending_bytes_must_be_below_the_producer_buffer() {
        assertThat(validator.validate(kafka(DataSize.ofMegabytes(16)))).isEmpty();
        assertThat(validator.validate(kafka(DataSize.ofMegabytes(32)))).extracting(ConstraintViolation::getMessage)
                .containsExactly("max-pending-bytes must be below the producer's buffer.memory (32 MiB)");
    }
}
