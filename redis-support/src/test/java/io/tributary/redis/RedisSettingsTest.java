package io.tributary.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RedisSettingsTest {

    @Test
    void theUrlsPasswordIsNeverPrinted() {
        RedisSettings settings =
                RedisSettings.of("rediss://tributary:s3cret-pass@cache.internal:6379/0", Duration.ofSeconds(2), "t");
        assertThat(settings.toString()).doesNotContain("s3cret-pass").contains("cache.internal:6379/0");
        assertThat(RedisSettings.redacted("redis://:s3cret@h:6379")).isEqualTo("redis://(redacted)@h:6379");
        assertThat(RedisSettings.redacted("redis://h:6379")).isEqualTo("redis://h:6379");
    }
}
