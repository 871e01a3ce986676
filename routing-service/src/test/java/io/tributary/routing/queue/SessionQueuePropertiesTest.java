package io.tributary.routing.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.sessionqueue.QueueFullPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SessionQueuePropertiesTest {

    @Test
    void the_redis_password_in_the_url_is_never_printed() {
        SessionQueueProperties properties = new SessionQueueProperties(
                "redis://tributary:s3cret-pw@redis:6379", Duration.ofSeconds(2), 1000, QueueFullPolicy.DROP_OLDEST);

        assertThat(properties.toString())
                .doesNotContain("s3cret-pw")
                .doesNotContain("tributary:")
                .contains("redis://(redacted)@redis:6379", "limit=1000");
    }
}
