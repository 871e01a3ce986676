package io.tributary.common.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.kafka.Partitioning;
import io.tributary.common.kafka.TopicNames;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class SharedSubscriptionPlacementTest {

    @Test
    void shared_exact_filter_is_co_partitioned_with_publishes_to_its_inner_filter() {
        SubscriptionRecord shared = new SubscriptionRecord("c", "$share/g/meters/42/power", "n", 1, false, false, 0, 1);
        ProducerRecord<byte[], byte[]> r = SubscriptionRecords.upsert(shared, 12);
        assertThat(r.topic()).isEqualTo(TopicNames.SUBSCRIPTIONS_EXACT);
        assertThat(r.partition()).isEqualTo(Partitioning.partitionFor("meters/42/power", 12));
        // The full filter stays in key and value.
        assertThat(SubscriptionRecord.parseKey(r.key())).containsExactly("$share/g/meters/42/power", "c");
        assertThat(SubscriptionRecord.decode(r.value()).filter()).isEqualTo("$share/g/meters/42/power");

        ProducerRecord<byte[], byte[]> removal = SubscriptionRecords.removal("$share/g/meters/42/power", "c", 2, 12);
        assertThat(removal.topic()).isEqualTo(TopicNames.SUBSCRIPTIONS_EXACT);
        assertThat(removal.partition()).isEqualTo(Partitioning.partitionFor("meters/42/power", 12));
    }

    @Test
    void shared_wildcard_filter_goes_to_the_wildcard_topic() {
        assertThat(TopicNames.subscriptionsFor("$share/g/meters/+/power")).isEqualTo(TopicNames.SUBSCRIPTIONS_WILDCARD);
        assertThat(TopicNames.subscriptionsFor("$share/g/meters/42/power")).isEqualTo(TopicNames.SUBSCRIPTIONS_EXACT);
        ProducerRecord<byte[], byte[]> r = SubscriptionRecords.removal("$share/g/#", "c", 2, 12);
        assertThat(r.topic()).isEqualTo(TopicNames.SUBSCRIPTIONS_WILDCARD);
        assertThat(r.partition()).isNull();
    }

    @Test
    void shared_targets_round_trip() {
        List<SharedTargets.Target> targets =
                List.of(new SharedTargets.Target("c-ü", "$share/g/a/+"), new SharedTargets.Target("d", "$share/h/#"));
        assertThat(SharedTargets.decode(SharedTargets.encode(targets))).isEqualTo(targets);
        assertThat(SharedTargets.decode(null)).isEmpty();
        assertThat(SharedTargets.decode(SharedTargets.encode(List.of()))).isEmpty();
    }
}
