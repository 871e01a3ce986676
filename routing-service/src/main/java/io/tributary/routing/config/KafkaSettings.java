package io.tributary.routing.config;

import java.time.Duration;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

import io.tributary.common.kafka.TopicLayout;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;

/**
 * Where Kafka is and how the shared topics are laid out. The layout must be the same in every service, because
 * whichever service starts first creates the topics.
 *
 * @param bootstrapServers Kafka bootstrap servers, {@code host:port[,host:port...]}
 * @param publishPartitions partitions of the publish topic and of the exact-subscription topic
 * @param wildcardPartitions partitions of the wildcard-subscription topic
 * @param downlinkPartitions partitions of each transport node's downlink topic
 * @param replicationFactor replication factor of every topic
 * @param downlinkRetention how long undelivered downlink records are kept
 * @param requestTimeout timeout of one Admin or client request to Kafka
 */
@Validated
@ConfigurationProperties("tributary.kafka")
public record KafkaSettings(
        @NotBlank String bootstrapServers,
        @Min(1) int publishPartitions,
        @Min(1) int wildcardPartitions,
        @Min(1) int downlinkPartitions,
        @Min(1) @Max(Short.MAX_VALUE) int replicationFactor,
        @NotNull @DurationMin(seconds = 1) Duration downlinkRetention,
        @NotNull @DurationMin(millis = 100) Duration requestTimeout) {

    public TopicLayout topicLayout() {
        return new TopicLayout(publishPartitions, wildcardPartitions, downlinkPartitions, (short) replicationFactor,
                downlinkRetention.toMillis());
    }
}
