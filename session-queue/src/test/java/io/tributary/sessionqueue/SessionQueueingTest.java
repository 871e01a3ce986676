package io.tributary.sessionqueue;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SessionQueueingTest {

    @Test
    void a_session_that_may_outlive_its_connection_or_was_resumed_is_queue_backed() {
        assertThat(SessionQueueing.queueBacked(0, false)).isFalse();
        assertThat(SessionQueueing.queueBacked(60, false)).isTrue();
        assertThat(SessionQueueing.queueBacked(0, true))
                .as("resumed with expiry 0 (MQTT 5 3.1.2.4)")
                .isTrue();
    }

    @Test
    void qos_1_and_2_deliveries_go_through_the_queue_qos_0_goes_live() {
        assertThat(SessionQueueing.viaQueue(1, 1)).isTrue();
        assertThat(SessionQueueing.viaQueue(2, 1)).isTrue();
        assertThat(SessionQueueing.viaQueue(0, 2)).isFalse();
        assertThat(SessionQueueing.viaQueue(2, 0))
                .as("downgraded by the subscription")
                .isFalse();
    }
}
