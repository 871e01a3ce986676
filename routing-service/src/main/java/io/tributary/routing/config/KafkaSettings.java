package io.tributary.routing.config;

import io.tributary.common.kafka.GroupMembership;
import io.tributary.common.kafka.TopicLayout;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Where Kafka is and how the shared topics are laid out. The layout must be the same in every service, because
 * whichever service starts first creates the topics.
 *
 * @param bootstrapServers Kafka bootstrap servers, {@code host:port[,host:port...]}
 * @param topics layout of the topics, shared with the other services
 * @param requestTimeout timeout of one Admin or client request to Kafka
 * @param group how the publish consumer joins the routers' group (protocol, static membership)
 * @param compression compression.type of the producer; lz4 by default: at 20,000 publishes/s it halved the bytes sent and stored (ratio 0.58) for no measurable CPU (docs/benchmarks-history.md, section 12)
 */
@Validated
@ConfigurationProperties("tributary.kafka")
public record KafkaSettings(
        @NotBlank String bootstrapServers,
        @Valid @NotNull TopicLayout topics,
        @NotNull @DurationMin(millis = 100) Duration requestTimeout,
        @Valid @NotNull GroupMembership group,
        @NotNull org.apache.kafka.common.record.CompressionType compression) {

    public TopicLayout topicLayout() {
        return topics;
    }
}
