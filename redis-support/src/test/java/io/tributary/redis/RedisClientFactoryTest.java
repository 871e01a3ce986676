package io.tributary.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What every connection is built with, from the settings the services bind from REDIS_URL. */
class RedisClientFactoryTest {

    @Test
    void the_url_carries_tls_credentials_and_database_as_the_services_configure_them() {
        RedisURI uri = RedisClientFactory.uri(new RedisSettings(
                "rediss://app:s3cret@redis.example:6380/2",
                Duration.ofMillis(1500),
                Duration.ofSeconds(1),
                "tributary-routing"));
        assertThat(uri.isSsl()).isTrue();
        RedisCredentials credentials =
                uri.getCredentialsProvider().resolveCredentials().block();
        assertThat(credentials.getUsername()).isEqualTo("app");
        assertThat(new String(credentials.getPassword())).isEqualTo("s3cret");
        assertThat(uri.getHost()).isEqualTo("redis.example");
        assertThat(uri.getPort()).isEqualTo(6380);
        assertThat(uri.getDatabase()).isEqualTo(2);
        assertThat(uri.getTimeout()).isEqualTo(Duration.ofMillis(1500));
        assertThat(uri.getClientName()).isEqualTo("tributary-routing");
        assertThat(uri.toString()).as("no password in logs").doesNotContain("s3cret");
    }

    @Test
    void commands_time_out_and_are_rejected_while_disconnected_and_the_connection_comes_back_by_itself() {
        ClientOptions options = RedisClientFactory.options(
                RedisSettings.of("redis://localhost:6379", Duration.ofSeconds(2), "tributary-session"));
        assertThat(options.isAutoReconnect()).isTrue();
        assertThat(options.getDisconnectedBehavior()).isEqualTo(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
        assertThat(options.getSocketOptions().getConnectTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(options.getTimeoutOptions().isTimeoutCommands()).isTrue();
    }

    @Test
    void settings_refuse_what_cannot_work() {
        assertThatThrownBy(() -> RedisSettings.of(" ", Duration.ofSeconds(1), "x"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RedisSettings.of("redis://h", Duration.ZERO, "x"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RedisSettings("redis://h", Duration.ofSeconds(1), Duration.ofMillis(-1), "x"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
