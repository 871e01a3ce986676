package io.tributary.routing.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.kafka.Partitioning;
import io.tributary.common.kafka.TopicNames;
import io.tributary.common.subscription.SubscriptionRecord;
import io.tributary.routing.index.SubscriptionChange;
import io.tributary.routing.index.SubscriptionIndex;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DeliveryPlannerTest {

    private static final int PARTITIONS = 12;

    private SubscriptionIndex index;
    private DeliveryPlanner planner;

    @BeforeEach
    void setUp() {
        index = new SubscriptionIndex();
        for (int p = 0; p < PARTITIONS; p++) {
            index.ownPartition(p);
        }
        planner = new DeliveryPlanner(index);
    }

    @Test
    void one_delivery_per_node_however_many_of_its_subscriptions_match() {
        subscribe("c1", "home/kitchen/temp", "n1");
        subscribe("c2", "home/+/temp", "n1");
        subscribe("c3", "home/#", "n1");
        subscribe("c4", "home/#", "n2");

        assertThat(nodesFor(partition("home/kitchen/temp"), "home/kitchen/temp", "pub"))
                .containsExactly("n1", "n2");
    }

    @Test
    void exact_subscriptions_count_only_on_the_partition_of_their_filter() {
        subscribe("c1", "home/kitchen/temp", "n1");
        int right = partition("home/kitchen/temp");
        int wrong = (right + 1) % PARTITIONS;

        assertThat(nodesFor(right, "home/kitchen/temp", null)).containsExactly("n1");
        assertThat(nodesFor(wrong, "home/kitchen/temp", null)).isEmpty();
    }

    @Test
    void no_node_when_nothing_matches() {
        subscribe("c1", "home/kitchen/temp", "n1");
        subscribe("c2", "home/+/humidity", "n2");

        assertThat(nodesFor(partition("home/kitchen/co2"), "home/kitchen/co2", null))
                .isEmpty();
    }

    @Test
    void offline_subscriptions_receive_nothing() {
        subscribe("c1", "a/b", null);
        subscribe("c2", "a/#", null);

        assertThat(nodesFor(partition("a/b"), "a/b", null)).isEmpty();

        subscribe("c2", "a/#", "n2");
        assertThat(nodesFor(partition("a/b"), "a/b", null)).containsExactly("n2");
    }

    @Test
    void removed_subscriptions_receive_nothing() {
        subscribe("c1", "a/b", "n1");
        subscribe("c2", "a/+", "n2");
        unsubscribe("c1", "a/b");
        unsubscribe("c2", "a/+");

        assertThat(nodesFor(partition("a/b"), "a/b", null)).isEmpty();
    }

    @Test
    void revoked_partition_routes_only_wildcards() {
        subscribe("c1", "a/b", "n1");
        subscribe("c2", "a/+", "n2");
        index.dropPartition(partition("a/b"));

        assertThat(nodesFor(partition("a/b"), "a/b", null)).containsExactly("n2");
    }

    @Test
    void no_local_skips_only_the_publishers_own_subscription() {
        SubscriptionRecord own = new SubscriptionRecord("pub", "chat/room", "n1", 1, true, false, 0, 1);
        apply(own);

        assertThat(nodesFor(partition("chat/room"), "chat/room", "pub")).isEmpty();
        assertThat(nodesFor(partition("chat/room"), "chat/room", "other")).containsExactly("n1");

        subscribe("listener", "chat/#", "n1");
        assertThat(nodesFor(partition("chat/room"), "chat/room", "pub")).containsExactly("n1");
    }

    @Test
    void dollar_topics_are_not_matched_by_leading_wildcards() {
        subscribe("all", "#", "n1");
        subscribe("plus", "+/monitor", "n2");
        subscribe("sys", "$SYS/#", "n3");
        subscribe("exact", "$SYS/monitor", "n4");

        assertThat(nodesFor(partition("$SYS/monitor"), "$SYS/monitor", null)).containsExactly("n3", "n4");
        assertThat(nodesFor(partition("app/monitor"), "app/monitor", null)).containsExactly("n1", "n2");
    }

    private java.util.Set<String> nodesFor(int partition, String topic, String publisher) {
        return planner.plan(partition, topic, 1, publisher).nodes().keySet();
    }

    @Test
    void persistent_sessions_get_qos1_and_qos2_through_their_queue_online_or_not() {
        apply(new SubscriptionRecord("online", "m/+", "n1", 1, false, false, 0, 1, true));
        apply(new SubscriptionRecord("away", "m/#", null, 2, false, false, 0, 1, true));
        apply(new SubscriptionRecord("clean", "m/x", "n2", 1, false, false, 0, 1, false));

        DeliveryPlan plan = planner.plan(partition("m/x"), "m/x", 1, "pub");

        assertThat(plan.queued())
                .containsExactlyInAnyOrder(
                        new DeliveryPlan.QueueTarget("online", "n1", ""),
                        new DeliveryPlan.QueueTarget("away", null, ""));
        // n1 is woken up for its queued client; n2 gets the record for its non-persistent one.
        assertThat(plan.nodes().keySet()).containsExactly("n1", "n2");
    }

    @Test
    void qos0_is_never_queued_and_reaches_online_persistent_sessions_directly() {
        apply(new SubscriptionRecord("online", "m/+", "n1", 1, false, false, 0, 1, true));
        apply(new SubscriptionRecord("away", "m/#", null, 2, false, false, 0, 1, true));
        apply(new SubscriptionRecord("sub0", "m/x", "n2", 0, false, false, 0, 1, true));

        DeliveryPlan qos0 = planner.plan(partition("m/x"), "m/x", 0, "pub");
        assertThat(qos0.queued()).isEmpty();
        assertThat(qos0.nodes().keySet()).containsExactly("n1", "n2");

        // Published at QoS 2 but subscribed at QoS 0: downgraded to 0, so not queued either.
        DeliveryPlan qos2 = planner.plan(partition("m/x"), "m/x", 2, "pub");
        assertThat(qos2.queued())
                .extracting(DeliveryPlan.QueueTarget::clientId)
                .containsExactlyInAnyOrder("online", "away");
        assertThat(qos2.nodes().keySet()).containsExactly("n1", "n2");
    }

    @Test
    void a_share_group_with_no_online_member_queues_for_one_offline_persistent_member() {
        apply(new SubscriptionRecord("a", "$share/g/m/x", null, 1, false, false, 0, 1, true));
        apply(new SubscriptionRecord("b", "$share/g/m/x", null, 1, false, false, 0, 1, true));

        DeliveryPlan plan = planner.plan(partition("m/x"), "m/x", 1, null);

        assertThat(plan.queued()).hasSize(1);
        assertThat(plan.queued().get(0).sharedFilters()).isEqualTo("$share/g/m/x");
        assertThat(plan.nodes()).isEmpty();

        apply(new SubscriptionRecord("c", "$share/g/m/x", "n3", 1, false, false, 0, 1, false));
        DeliveryPlan withOnline = planner.plan(partition("m/x"), "m/x", 1, null);
        assertThat(withOnline.queued()).isEmpty();
        assertThat(withOnline.nodes().keySet()).containsExactly("n3");
    }

    private void subscribe(String clientId, String filter, String nodeId) {
        apply(new SubscriptionRecord(clientId, filter, nodeId, 1, false, false, 0, 1));
    }

    private void apply(SubscriptionRecord s) {
        // Through the feed format, as the router receives it.
        String topic = TopicNames.subscriptionsFor(s.filter());
        // A shared subscription lives on the partition of its inner filter, like the publishes it matches.
        index.apply(SubscriptionChange.decode(
                topic,
                partition(io.tributary.common.topic.SharedFilters.innerFilter(s.filter())),
                s.key(),
                s.encode()));
    }

    private void unsubscribe(String clientId, String filter) {
        String topic = TopicNames.subscriptionsFor(filter);
        index.apply(
                SubscriptionChange.decode(topic, partition(filter), SubscriptionRecord.key(filter, clientId), null));
    }

    private static int partition(String topic) {
        return Partitioning.partitionFor(topic, PARTITIONS);
    }
}
