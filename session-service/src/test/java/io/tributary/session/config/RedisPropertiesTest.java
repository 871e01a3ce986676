package io.tributary.session.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RedisPropertiesTest {

    @Test
    void the_redis_password_in_the_url_is_never_printed() {
        SessionServiceProperties.Redis redis =
                new SessionServiceProperties.Redis(URI.create("redis://:s3cret-pw@redis:6379"), Duration.ofSeconds(1));

        assertThat(redis.toString()).doesNotContain("s3cret-pw").contains("redis://(redacted)@redis:6379");
    }
}
