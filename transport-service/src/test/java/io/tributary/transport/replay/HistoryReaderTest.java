package io.tributary.transport.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.kafka.Partitioning;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

class HistoryReaderTest {

    private static ConsumerRecord<byte[], byte[]> r(int partition, long offset, long timestamp) {
        return new ConsumerRecord<>(
                "tributary.publish",
                partition,
                offset,
                timestamp,
                TimestampType.CREATE_TIME,
                0,
                0,
                new byte[0],
                new byte[0],
                new org.apache.kafka.common.header.internals.RecordHeaders(),
                java.util.Optional.empty());
    }

    @Test
    void merge_orders_by_timestamp_and_keeps_each_partitions_offset_order_even_when_clocks_disagree() {
        Deque<ConsumerRecord<byte[], byte[]>> p0 = new ArrayDeque<>(List.of(r(0, 1, 100), r(0, 2, 90), r(0, 3, 300)));
        Deque<ConsumerRecord<byte[], byte[]>> p1 = new ArrayDeque<>(List.of(r(1, 7, 95), r(1, 8, 200)));
        List<String> merged = HistoryReader.mergeByTimestamp(List.of(p0, p1)).stream()
                .map(x -> x.partition() + "@" + x.offset())
                .toList();
        // 0@2 has an older timestamp than 0@1 (another node's clock) but stays behind it.
        assertThat(merged).containsExactly("1@7", "0@1", "0@2", "1@8", "0@3");
    }

    @Test
    void an_exact_filter_reads_the_partition_its_topic_is_keyed_to_and_a_wildcard_reads_all() {
        assertThat(HistoryReader.partitions(List.of("a/b"), 12))
                .containsExactly(new TopicPartition("tributary.publish", Partitioning.partitionFor("a/b", 12)));
        assertThat(HistoryReader.partitions(List.of("a/b", "a/+"), 4)).hasSize(4);
    }
}
