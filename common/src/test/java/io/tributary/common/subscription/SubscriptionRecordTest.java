package io.tributary.common.subscription;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.common.kafka.Partitioning;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.kafka.TopicNames;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class SubscriptionRecordTest {

    @Test
    void round_trips_online_and_offline() {
        SubscriptionRecord online = new SubscriptionRecord("dev-1", "a/ü/+", "node-1", 1, true, false, 2, 7L);
        assertThat(SubscriptionRecord.decode(online.encode())).isEqualTo(online);
        SubscriptionRecord offline = online.withNode(null, 8L);
        assertThat(SubscriptionRecord.decode(offline.encode())).isEqualTo(offline);
        assertThat(offline.online()).isFalse();
    }

    @Test
    void key_splits_back_into_filter_and_client() {
        assertThat(SubscriptionRecord.parseKey(SubscriptionRecord.key("a/b", "c/1")))
                .containsExactly("a/b", "c/1");
    }

    @Test
    void truncated_value_is_rejected() {
        byte[] bytes = new SubscriptionRecord("c", "f", null, 0, false, false, 0, 1).encode();
        byte[] cut = java.util.Arrays.copyOf(bytes, bytes.length - 3);
        assertThatThrownBy(() -> SubscriptionRecord.decode(cut)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void exact_filters_are_co_partitioned_with_publishes_and_wildcards_are_not() {
        SubscriptionRecord exact = new SubscriptionRecord("c", "meters/42/power", "n", 1, false, false, 0, 1);
        ProducerRecord<byte[], byte[]> r = SubscriptionRecords.upsert(exact, 12);
        assertThat(r.topic()).isEqualTo(TopicNames.SUBSCRIPTIONS_EXACT);
        assertThat(r.partition()).isEqualTo(Partitioning.partitionFor("meters/42/power", 12));
        assertThat(RecordHeaders.readLong(r.headers(), RecordHeaders.EPOCH)).isEqualTo(1L);

        ProducerRecord<byte[], byte[]> w = SubscriptionRecords.removal("meters/+/power", "c", 3, 12);
        assertThat(w.topic()).isEqualTo(TopicNames.SUBSCRIPTIONS_WILDCARD);
        assertThat(w.partition()).isNull();
        assertThat(w.value()).isNull();
        assertThat(RecordHeaders.readLong(w.headers(), RecordHeaders.EPOCH)).isEqualTo(3L);
    }

    @Test
    void partitioning_matches_kafka_default_partitioner_for_keyed_records() {
        // Kafka's BuiltInPartitioner.partitionForKey: toPositive(murmur2(key)) % n
        byte[] key = "a/b".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        int expected = org.apache.kafka.clients.producer.internals.BuiltInPartitioner.partitionForKey(key, 7);
        assertThat(Partitioning.partitionFor("a/b", 7)).isEqualTo(expected);
    }
}
