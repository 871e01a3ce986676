package io.tributary.routing.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.sessionqueue.QueueFullPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.unit.DataSize;

class SessionQueuePropertiesTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(SessionQueueProperties.class)
    static class PropertiesOnly {}

    /** The settings as application.yml gives them, but for the byte budget each test sets. */
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class))
            .withUserConfiguration(PropertiesOnly.class)
            .withPropertyValues(
                    "tributary.routing.session-queue.redis-url=redis://localhost:6379",
                    "tributary.routing.session-queue.command-timeout=2s",
                    "tributary.routing.session-queue.limit=10000",
                    "tributary.routing.session-queue.full-policy=drop-oldest");

    @Test
    void the_redis_password_in_the_url_is_never_printed() {
        SessionQueueProperties properties = new SessionQueueProperties(
                "redis://tributary:s3cret-pw@redis:6379",
                Duration.ofSeconds(2),
                1000,
                DataSize.ofMegabytes(16),
                QueueFullPolicy.DROP_OLDEST);

        assertThat(properties.toString())
                .doesNotContain("s3cret-pw")
                .doesNotContain("tributary:")
                .contains("redis://(redacted)@redis:6379", "limit=1000", "limitBytes=16777216B");
    }

    @Test
    void the_byte_budget_binds_as_a_data_size() {
        runner.withPropertyValues("tributary.routing.session-queue.limit-bytes=16MB")
                .run(context -> assertThat(
                                context.getBean(SessionQueueProperties.class).limitBytes())
                        .isEqualTo(DataSize.ofMegabytes(16)));
        runner.withPropertyValues("tributary.routing.session-queue.limit-bytes=64KB")
                .run(context -> assertThat(
                                context.getBean(SessionQueueProperties.class).limitBytes())
                        .isEqualTo(DataSize.ofKilobytes(64)));
        runner.withPropertyValues("tributary.routing.session-queue.limit-bytes=1GB")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void a_byte_budget_missing_out_of_range_or_not_a_size_stops_the_start() {
        runner.run(context -> assertThat(context).as("no budget").hasFailed());
        for (String wrong : new String[] {"16", "63KB", "2GB", "0", "-1MB", "lots"}) {
            runner.withPropertyValues("tributary.routing.session-queue.limit-bytes=" + wrong)
                    .run(context -> assertThat(context).as(wrong).hasFailed());
        }
    }
}
