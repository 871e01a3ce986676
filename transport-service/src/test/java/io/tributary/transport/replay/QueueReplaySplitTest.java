package io.tributary.transport.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.kafka.RecordHeaders;
import io.tributary.sessionqueue.EntryHeaders;
import io.tributary.sessionqueue.QueueHold;
import io.tributary.transport.connection.SubscriptionOptions;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.Test;

/**
 * A persistent session's history goes where a live delivery of it would: QoS 1/2 into the session queue (with its
 * publish position), QoS 0 to the seam; No Local and the granted QoS apply, and the truncation mark goes on the
 * history's first message wherever it goes.
 */
class QueueReplaySplitTest {

    private static ConsumerRecord<byte[], byte[]> record(
            int partition, long offset, String topic, int qos, String from) {
        ConsumerRecord<byte[], byte[]> r = new ConsumerRecord<>(
                "tributary.publish",
                partition,
                offset,
                topic.getBytes(StandardCharsets.UTF_8),
                (topic + "@" + offset).getBytes(StandardCharsets.UTF_8));
        r.headers().add(new RecordHeader(RecordHeaders.QOS, new byte[] {(byte) qos}));
        r.headers().add(new RecordHeader(RecordHeaders.CLIENT_ID, from.getBytes(StandardCharsets.UTF_8)));
        return r;
    }

    @Test
    void qos_1_and_2_go_into_the_queue_qos_0_to_the_seam_no_local_and_unmatched_nowhere() {
        Map<String, SubscriptionOptions> granted = new LinkedHashMap<>();
        granted.put("a/+", new SubscriptionOptions(2, false, false));
        granted.put("b/#", new SubscriptionOptions(0, false, false));
        granted.put("c/own", new SubscriptionOptions(1, true, false));
        List<ConsumerRecord<byte[], byte[]>> history = List.of(
                record(0, 4, "a/x", 1, "p"),
                record(1, 7, "b/y", 2, "p"),
                record(0, 5, "a/x", 0, "p"),
                record(2, 9, "c/own", 1, "me"),
                record(2, 10, "d/z", 1, "p"),
                record(3, 1, "a/q", 2, "p"));

        QueueReplay.Split split = QueueReplay.split(history, granted, "me", false);

        assertThat(split.queued())
                .extracting(QueueHold.HistoryEntry::partition, QueueHold.HistoryEntry::offset)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(0, 4L), org.assertj.core.groups.Tuple.tuple(3, 1L));
        assertThat(split.qos0())
                .extracting(ConsumerRecord::offset)
                .as("b/y granted at QoS 0, a/x published at QoS 0")
                .containsExactly(7L, 5L);
        assertThat(split.markedInQueue()).isFalse();
    }

    @Test
    void the_truncation_mark_goes_on_the_first_message_when_it_is_queued() {
        Map<String, SubscriptionOptions> granted = Map.of("a/#", new SubscriptionOptions(1, false, false));
        QueueReplay.Split split = QueueReplay.split(
                List.of(record(0, 1, "a/1", 1, "p"), record(0, 2, "a/2", 1, "p")), granted, "me", true);
        assertThat(split.markedInQueue()).isTrue();
        assertThat(marks(split.queued().get(0))).containsExactly("true");
        assertThat(marks(split.queued().get(1))).isEmpty();

        QueueReplay.Split qos0First = QueueReplay.split(
                List.of(record(0, 1, "a/1", 0, "p"), record(0, 2, "a/2", 1, "p")), granted, "me", true);
        assertThat(qos0First.markedInQueue())
                .as("marked by the seam's first message instead")
                .isFalse();
        assertThat(marks(qos0First.queued().get(0))).isEmpty();
    }

    private static List<String> marks(QueueHold.HistoryEntry entry) {
        return java.util.stream.StreamSupport.stream(
                        EntryHeaders.decode(entry.encodedHeaders())
                                .headers(RecordHeaders.USER_PROPERTY_PREFIX + ReplayRequest.TRUNCATED)
                                .spliterator(),
                        false)
                .map(h -> new String(h.value(), StandardCharsets.UTF_8))
                .toList();
    }
}
