package io.tributary.routing.index;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.kafka.Partitioning;
import io.tributary.common.subscription.SubscriptionRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SubscriptionIndexTest {

    private static final int PARTITIONS = 12;

    private SubscriptionIndex index;

    @BeforeEach
    void setUp() {
        index = new SubscriptionIndex();
    }

    @Test
    void exact_subscription_matches_only_its_topic_on_its_partition() {
        int p = own("a/b");
        index.apply(upsert(sub("c1", "a/b", "n1"), p));

        assertThat(matches(p, "a/b")).extracting(SubscriptionRecord::clientId).containsExactly("c1");
        assertThat(matches(p, "a/c")).isEmpty();
        assertThat(matches(p, "a/b/c")).isEmpty();
        assertThat(index.exactFilterCount()).isEqualTo(1);
    }

    @Test
    void exact_change_for_a_partition_not_owned_is_ignored() {
        int p = Partitioning.partitionFor("a/b", PARTITIONS);
        index.apply(upsert(sub("c1", "a/b", "n1"), p));

        assertThat(matches(p, "a/b")).isEmpty();
        assertThat(index.exactFilterCount()).isZero();
    }

    @Test
    void tombstone_removes_the_subscription_of_that_client_only() {
        int p = own("a/b");
        index.apply(upsert(sub("c1", "a/b", "n1"), p));
        index.apply(upsert(sub("c2", "a/b", "n2"), p));

        index.apply(removal("a/b", "c1", p));

        assertThat(matches(p, "a/b")).extracting(SubscriptionRecord::clientId).containsExactly("c2");
        index.apply(removal("a/b", "c2", p));
        assertThat(matches(p, "a/b")).isEmpty();
        assertThat(index.exactFilterCount()).isZero();
    }

    @Test
    void tombstone_of_an_unknown_subscription_changes_nothing() {
        int p = own("a/b");
        index.apply(removal("a/b", "ghost", p));
        index.apply(removal("x/#", "ghost", 0));

        assertThat(index.exactFilterCount()).isZero();
        assertThat(index.wildcardFilterCount()).isZero();
        assertThat(index.offlineCount()).isZero();
    }

    @Test
    void upsert_replaces_the_previous_state_of_the_same_key() {
        int p = own("a/b");
        index.apply(upsert(sub("c1", "a/b", "n1"), p));
        index.apply(upsert(sub("c1", "a/b", "n2"), p));

        assertThat(matches(p, "a/b")).extracting(SubscriptionRecord::nodeId).containsExactly("n2");
    }

    @Test
    void dropping_a_partition_forgets_its_exact_subscriptions_but_keeps_wildcards() {
        int p = own("a/b");
        index.apply(upsert(sub("c1", "a/b", "n1"), p));
        index.apply(upsert(sub("c2", "a/+", "n2"), 0));
        index.apply(upsert(sub("c3", "a/b", null), p));

        index.dropPartition(p);

        assertThat(index.ownsPartition(p)).isFalse();
        assertThat(index.ownedPartitions()).doesNotContain(p);
        assertThat(matches(p, "a/b")).extracting(SubscriptionRecord::clientId).containsExactly("c2");
        assertThat(index.exactFilterCount()).isZero();
        assertThat(index.offlineCount()).isZero();
        // Owned again: starts empty, to be rebuilt from the feed.
        index.ownPartition(p);
        assertThat(matches(p, "a/b")).extracting(SubscriptionRecord::clientId).containsExactly("c2");
    }

    @Test
    void wildcard_subscriptions_match_on_every_partition() {
        index.apply(upsert(sub("c1", "sensors/+/temp", "n1"), 2));
        index.apply(upsert(sub("c2", "sensors/#", "n2"), 0));

        for (int p = 0; p < PARTITIONS; p++) {
            assertThat(matches(p, "sensors/k1/temp"))
                    .extracting(SubscriptionRecord::clientId)
                    .containsExactlyInAnyOrder("c1", "c2");
        }
        assertThat(matches(0, "sensors"))
                .extracting(SubscriptionRecord::clientId)
                .containsExactly("c2");
        assertThat(matches(0, "other/k1/temp")).isEmpty();
        assertThat(index.wildcardFilterCount()).isEqualTo(2);
        index.apply(removal("sensors/#", "c2", 0));
        assertThat(matches(0, "sensors/k1/temp"))
                .extracting(SubscriptionRecord::clientId)
                .containsExactly("c1");
    }

    @Test
    void dollar_topics_match_exact_filters_and_wildcards_after_the_first_level_only() {
        int p = own("$SYS/broker/load");
        index.apply(upsert(sub("exact", "$SYS/broker/load", "n1"), p));
        index.apply(upsert(sub("hash", "#", "n2"), 0));
        index.apply(upsert(sub("plus", "+/broker/load", "n3"), 0));
        index.apply(upsert(sub("sys", "$SYS/#", "n4"), 0));

        assertThat(matches(p, "$SYS/broker/load"))
                .extracting(SubscriptionRecord::clientId)
                .containsExactlyInAnyOrder("exact", "sys");
    }

    @Test
    void offline_subscriptions_stay_indexed_and_are_counted() {
        int p = own("a/b");
        index.apply(upsert(sub("c1", "a/b", null), p));
        index.apply(upsert(sub("c2", "a/#", null), 0));
        index.apply(upsert(sub("c3", "a/#", "n3"), 0));

        assertThat(index.offlineCount()).isEqualTo(2);
        assertThat(matches(p, "a/b"))
                .extracting(SubscriptionRecord::clientId)
                .containsExactlyInAnyOrder("c1", "c2", "c3");

        index.apply(upsert(sub("c1", "a/b", "n1"), p));
        assertThat(index.offlineCount()).isEqualTo(1);
        index.apply(upsert(sub("c3", "a/#", null), 0));
        assertThat(index.offlineCount()).isEqualTo(2);
        index.apply(removal("a/#", "c2", 0));
        assertThat(index.offlineCount()).isEqualTo(1);
    }

    @Test
    void clear_forgets_everything() {
        int p = own("a/b");
        index.apply(upsert(sub("c1", "a/b", null), p));
        index.apply(upsert(sub("c2", "a/#", "n2"), 0));

        index.clear();

        assertThat(index.ownedPartitions()).isEmpty();
        assertThat(matches(p, "a/b")).isEmpty();
        assertThat(index.exactFilterCount()).isZero();
        assertThat(index.wildcardFilterCount()).isZero();
        assertThat(index.offlineCount()).isZero();
    }

    private int own(String topic) {
        int p = Partitioning.partitionFor(topic, PARTITIONS);
        index.ownPartition(p);
        return p;
    }

    private List<SubscriptionRecord> matches(int partition, String topic) {
        List<SubscriptionRecord> found = new ArrayList<>();
        index.forEachMatch(partition, topic, found::add);
        return found;
    }

    static SubscriptionRecord sub(String clientId, String filter, String nodeId) {
        return new SubscriptionRecord(clientId, filter, nodeId, 1, false, false, 0, 1);
    }

    static SubscriptionChange upsert(SubscriptionRecord s, int partition) {
        boolean exact = !io.tributary.common.topic.TopicFilters.hasWildcard(s.filter());
        return new SubscriptionChange(exact, partition, s.filter(), s.clientId(), s);
    }

    static SubscriptionChange removal(String filter, String clientId, int partition) {
        boolean exact = !io.tributary.common.topic.TopicFilters.hasWildcard(filter);
        return new SubscriptionChange(exact, partition, filter, clientId, null);
    }
}
