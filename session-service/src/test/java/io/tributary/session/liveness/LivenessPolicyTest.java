package io.tributary.session.liveness;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LivenessPolicyTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Test
    void nothing_is_declared_before_the_detector_ran_healthy_for_a_whole_timeout() {
        assertThat(LivenessPolicy.mayDeclare(T0, T0, TIMEOUT)).isFalse();
        assertThat(LivenessPolicy.mayDeclare(T0, T0.plusSeconds(9), TIMEOUT)).isFalse();
        assertThat(LivenessPolicy.mayDeclare(T0, T0.plusSeconds(10), TIMEOUT)).isTrue();
        assertThat(LivenessPolicy.mayDeclare(null, T0, TIMEOUT))
                .as("just failed")
                .isFalse();
    }
}
