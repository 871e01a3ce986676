package io.tributary.transport.connect;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KeepAliveCapTest {

    @Test
    void test_keep_alive_above_the_maximum_is_lowered_to_it() {
        assertThat(KeepAliveCap.effective(600, 300)).isEqualTo(300);
        assertThat(KeepAliveCap.effective(300, 300)).isEqualTo(300);
        assertThat(KeepAliveCap.effective(60, 300)).isEqualTo(60);
    }

    @Test
    void test_keep_alive_0_gets_the_maximum_when_one_is_configured() {
        assertThat(KeepAliveCap.effective(0, 300)).isEqualTo(300);
    }

    @Test
    void test_without_a_configured_maximum_keep_alive_0_stays_off() {
        assertThat(KeepAliveCap.effective(0, KeepAliveCap.PROTOCOL_MAXIMUM)).isZero();
        assertThat(KeepAliveCap.effective(65535, KeepAliveCap.PROTOCOL_MAXIMUM)).isEqualTo(65535);
    }
}
