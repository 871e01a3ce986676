package io.tributary.common.kafka;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TopicLayoutTest {

    @Test
    void min_insync_replicas_must_fit_the_replication_factor() {
        // acks=all would refuse every write if more in-sync replicas were required than there are replicas.
        assertThatThrownBy(() -> new TopicLayout(
                        12, 4, 1, (short) 1, Duration.ofHours(1), (short) 2, TopicLayout.Creation.CREATE))
                .hasMessageContaining("min.insync.replicas (2)");
        assertThatThrownBy(() -> new TopicLayout(
                        12, 4, 1, (short) 3, Duration.ofHours(1), (short) 0, TopicLayout.Creation.CREATE))
                .isInstanceOf(IllegalArgumentException.class);
        new TopicLayout(12, 4, 1, (short) 3, Duration.ofHours(1), (short) 2, TopicLayout.Creation.VERIFY);
    }
}
