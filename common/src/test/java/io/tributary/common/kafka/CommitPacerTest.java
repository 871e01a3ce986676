package io.tributary.common.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Kafka's in-memory consumer records what is committed; the clock is a counter, so no test waits. */
class CommitPacerTest {

    private static final TopicPartition TP = new TopicPartition("t", 0);

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
    private final Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    private final CommitPacer pacer = new CommitPacer(Duration.ofMillis(25), nanos::get);

    @Test
    void commits_at_most_once_per_interval_and_only_when_something_was_handled() {
        consumer.assign(List.of(TP));
        pacer.commitIfDue(consumer, () -> offsets);
        nanos.addAndGet(Duration.ofMillis(30).toNanos());
        pacer.commitIfDue(consumer, () -> offsets);
        assertThat(committed()).as("nothing handled, nothing committed").isNull();

        handle(10);
        pacer.commitIfDue(consumer, () -> offsets);
        assertThat(committed()).isEqualTo(10);
        assertThat(pacer.pending()).isFalse();

        handle(20);
        nanos.addAndGet(Duration.ofMillis(24).toNanos());
        pacer.commitIfDue(consumer, () -> offsets);
        assertThat(committed()).as("within the interval of the last commit").isEqualTo(10);
        assertThat(pacer.pending()).isTrue();

        nanos.addAndGet(Duration.ofMillis(1).toNanos());
        pacer.commitIfDue(consumer, () -> offsets);
        assertThat(committed()).isEqualTo(20);
    }

    @Test
    void a_synchronous_commit_by_the_owner_leaves_nothing_owed() {
        consumer.assign(List.of(TP));
        handle(5);
        pacer.committed();
        nanos.addAndGet(Duration.ofSeconds(1).toNanos());
        pacer.commitIfDue(consumer, () -> offsets);

        assertThat(pacer.pending()).isFalse();
        assertThat(committed()).isNull();
    }

    private void handle(long offset) {
        offsets.put(TP, new OffsetAndMetadata(offset));
        pacer.handled();
    }

    private Long committed() {
        OffsetAndMetadata o = consumer.committed(Set.of(TP)).get(TP);
        return o == null ? null : o.offset();
    }
}
