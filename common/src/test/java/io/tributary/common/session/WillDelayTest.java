package io.tributary.common.session;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WillDelayTest {

    @Test
    void the_will_is_due_after_the_delay_or_when_the_session_ends_whichever_is_first() {
        assertThat(WillDelay.effectiveSeconds(0, 600)).isZero();
        assertThat(WillDelay.effectiveSeconds(30, 600)).isEqualTo(30);
        assertThat(WillDelay.effectiveSeconds(30, 5)).isEqualTo(5);
        assertThat(WillDelay.effectiveSeconds(30, 0))
                .as("session ends with the connection")
                .isZero();
        assertThat(WillDelay.effectiveSeconds(0xFFFFFFFFL, 0xFFFFFFFFL)).isEqualTo(0xFFFFFFFFL);
    }
}
