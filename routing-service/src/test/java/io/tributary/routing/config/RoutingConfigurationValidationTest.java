package io.tributary.routing.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;
import org.springframework.context.annotation.Configuration;

class RoutingConfigurationValidationTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties({KafkaSettings.class, RoutingProperties.class})
    static class PropertiesOnly {}

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class))
            .withUserConfiguration(PropertiesOnly.class)
            .withPropertyValues(
                    "tributary.kafka.bootstrap-servers=localhost:9092",
                    "tributary.kafka.topics.publish-partitions=12",
                    "tributary.kafka.topics.wildcard-partitions=3",
                    "tributary.kafka.topics.downlink-partitions=3",
                    "tributary.kafka.topics.replication-factor=1",
                    "tributary.kafka.topics.downlink-retention=1h",
                    "tributary.kafka.topics.min-insync-replicas=1",
                    "tributary.kafka.topics.creation=create",
                    "tributary.kafka.request-timeout=10s",
                    "tributary.kafka.group.protocol=consumer",
                    "tributary.kafka.group.instance-id=",
                    "tributary.kafka.compression=lz4",
                    "tributary.routing.group-id=tributary-routing",
                    "tributary.routing.poll-timeout=100ms",
                    "tributary.routing.max-poll-records=500",
                    "tributary.routing.feed-catch-up-timeout=10s",
                    "tributary.routing.produce-timeout=30s",
                    "tributary.routing.produce-max-block=5s",
                    "tributary.routing.producer-linger=0ms",
                    "tributary.routing.commit-interval=200ms",
                    "tributary.routing.downlink-refresh-interval=2s",
                    "tributary.routing.downlink-miss-refresh-interval=1s",
                    "tributary.routing.retry-backoff-min=200ms",
                    "tributary.routing.retry-backoff-max=5s",
                    "tributary.routing.shared-strategy=round-robin");

    @Test
    void binds_valid_settings() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(RoutingProperties.class).pollTimeout()).isEqualTo(Duration.ofMillis(100));
            assertThat(context.getBean(KafkaSettings.class).topicLayout().publishPartitions())
                    .isEqualTo(12);
        });
    }

    @Test
    void shared_strategy_binds_from_its_documented_spelling() {
        runner.run(
                context -> assertThat(context.getBean(RoutingProperties.class).sharedStrategy())
                        .isEqualTo(io.tributary.routing.fanout.SharedStrategy.ROUND_ROBIN));
        runner.withPropertyValues("tributary.routing.shared-strategy=sticky")
                .run(context -> assertThat(
                                context.getBean(RoutingProperties.class).sharedStrategy())
                        .isEqualTo(io.tributary.routing.fanout.SharedStrategy.STICKY));
        runner.withPropertyValues("tributary.routing.shared-strategy=random")
                .run(context -> assertThat(
                                context.getBean(RoutingProperties.class).sharedStrategy())
                        .isEqualTo(io.tributary.routing.fanout.SharedStrategy.RANDOM));
        runner.withPropertyValues("tributary.routing.shared-strategy=least-loaded")
                .run(context -> assertThat(context).hasFailed());
    }

    @Test
    void group_membership_binds_protocol_and_instance_id() {
        runner.run(context -> {
            assertThat(context.getBean(KafkaSettings.class).group().protocol())
                    .isEqualTo(io.tributary.common.kafka.GroupMembership.Protocol.CONSUMER);
            assertThat(context.getBean(KafkaSettings.class).group().isStatic()).isFalse();
        });
        runner.withPropertyValues(
                        "tributary.kafka.group.protocol=classic", "tributary.kafka.group.instance-id=routing-0")
                .run(context -> {
                    assertThat(context.getBean(KafkaSettings.class).group().protocol())
                            .isEqualTo(io.tributary.common.kafka.GroupMembership.Protocol.CLASSIC);
                    assertThat(context.getBean(KafkaSettings.class).group().instanceId())
                            .isEqualTo("routing-0");
                });
        runner.withPropertyValues("tributary.kafka.group.protocol=eager")
                .run(context -> assertThat(context).hasFailed());
        runner.withPropertyValues("tributary.kafka.group.instance-id=routing 0")
                .run(context -> assertThat(context).hasFailed());
    }

    @Test
    void rejects_invalid_settings_at_startup() {
        runner.withPropertyValues("tributary.kafka.topics.publish-partitions=0")
                .run(context -> assertThat(context).hasFailed());
        runner.withPropertyValues("tributary.kafka.topics.min-insync-replicas=2")
                .run(context -> assertThat(context).hasFailed());
        runner.withPropertyValues("tributary.kafka.compression=brotli")
                .run(context -> assertThat(context).hasFailed());
        runner.withPropertyValues("tributary.kafka.topics.creation=sometimes")
                .run(context -> assertThat(context).hasFailed());
        runner.withPropertyValues("tributary.routing.group-id= ")
                .run(context -> assertThat(context).hasFailed());
        runner.withPropertyValues("tributary.routing.retry-backoff-max=100ms")
                .run(context -> assertThat(context).hasFailed());
    }
}
