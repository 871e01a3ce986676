package io.tributary.routing.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.kafka.Partitioning;
import io.tributary.common.kafka.TopicNames;
import io.tributary.common.subscription.SharedTargets.Target;
import io.tributary.common.subscription.SubscriptionRecord;
import io.tributary.routing.index.SubscriptionChange;
import io.tributary.routing.index.SubscriptionIndex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;

class SharedSubscriptionPlannerTest {

    private static final int PARTITIONS = 12;
    private static final String TOPIC = "plant/line-1/temp";

    private final SubscriptionIndex index = new SubscriptionIndex();

    SharedSubscriptionPlannerTest() {
        for (int p = 0; p < PARTITIONS; p++) {
            index.ownPartition(p);
        }
    }

    @Test
    void round_robin_picks_exactly_one_member_per_message_in_turn_across_nodes() {
        DeliveryPlanner planner = planner(SharedStrategy.ROUND_ROBIN);
        subscribe("m1", "$share/g/plant/+/temp", "n1");
        subscribe("m2", "$share/g/plant/+/temp", "n2");

        List<Target> chosen = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            SortedMap<String, List<Target>> plan = plan(planner, "pub");
            assertThat(plan).hasSize(1);
            List<Target> targets = plan.values().iterator().next();
            assertThat(targets).hasSize(1);
            chosen.add(targets.get(0));
        }
        assertThat(chosen).extracting(Target::clientId).containsExactly("m1", "m2", "m1", "m2", "m1", "m2");
        assertThat(chosen).extracting(Target::sharedFilter).containsOnly("$share/g/plant/+/temp");
    }

    @Test
    void normal_subscribers_get_every_message_and_their_node_carries_only_chosen_members() {
        DeliveryPlanner planner = planner(SharedStrategy.ROUND_ROBIN);
        subscribe("normal", TOPIC, "n1");
        subscribe("m1", "$share/g/" + TOPIC, "n1");
        subscribe("m2", "$share/g/" + TOPIC, "n2");

        SortedMap<String, List<Target>> first = plan(planner, "pub");
        assertThat(first).containsOnlyKeys("n1");
        assertThat(first.get("n1")).containsExactly(new Target("m1", "$share/g/" + TOPIC));
        SortedMap<String, List<Target>> second = plan(planner, "pub");
        // n1 still gets the message for the normal subscriber, but no member of the group there.
        assertThat(second).containsOnlyKeys("n1", "n2");
        assertThat(second.get("n1")).isEmpty();
        assertThat(second.get("n2")).containsExactly(new Target("m2", "$share/g/" + TOPIC));
    }

    @Test
    void every_group_gets_its_own_member_and_a_client_may_be_in_several_groups() {
        DeliveryPlanner planner = planner(SharedStrategy.ROUND_ROBIN);
        subscribe("a", "$share/g1/" + TOPIC, "n1");
        subscribe("a", "$share/g2/plant/#", "n1");
        subscribe("a", TOPIC, "n1");

        SortedMap<String, List<Target>> plan = plan(planner, "pub");
        assertThat(plan).containsOnlyKeys("n1");
        assertThat(plan.get("n1"))
                .containsExactlyInAnyOrder(new Target("a", "$share/g1/" + TOPIC), new Target("a", "$share/g2/plant/#"));
    }

    @Test
    void offline_members_are_skipped_and_removed_members_forgotten() {
        DeliveryPlanner planner = planner(SharedStrategy.ROUND_ROBIN);
        subscribe("m1", "$share/g/" + TOPIC, null);
        subscribe("m2", "$share/g/" + TOPIC, "n2");
        for (int i = 0; i < 3; i++) {
            assertThat(plan(planner, "pub").get("n2")).containsExactly(new Target("m2", "$share/g/" + TOPIC));
        }
        unsubscribe("m2", "$share/g/" + TOPIC);
        assertThat(plan(planner, "pub")).isEmpty();
    }

    @Test
    void sticky_sends_one_publishers_messages_to_one_member() {
        DeliveryPlanner planner = planner(SharedStrategy.STICKY);
        for (int m = 0; m < 4; m++) {
            subscribe("m" + m, "$share/g/plant/#", "n" + (m % 2));
        }
        Map<String, Set<String>> membersByPublisher = new HashMap<>();
        for (int p = 0; p < 20; p++) {
            for (int i = 0; i < 5; i++) {
                String member = plan(planner, "pub-" + p).values().stream()
                        .flatMap(List::stream)
                        .map(Target::clientId)
                        .findFirst()
                        .orElseThrow();
                membersByPublisher
                        .computeIfAbsent("pub-" + p, k -> new HashSet<>())
                        .add(member);
            }
        }
        assertThat(membersByPublisher.values())
                .allSatisfy(members -> assertThat(members).hasSize(1));
        // Different publishers spread over the members.
        assertThat(membersByPublisher.values().stream()
                        .flatMap(Set::stream)
                        .distinct()
                        .count())
                .isGreaterThan(1);
    }

    @Test
    void random_picks_one_member_per_message_and_reaches_all_of_them() {
        DeliveryPlanner planner = planner(SharedStrategy.RANDOM);
        for (int m = 0; m < 3; m++) {
            subscribe("m" + m, "$share/g/" + TOPIC, "n" + m);
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            SortedMap<String, List<Target>> plan = plan(planner, "pub");
            assertThat(plan).hasSize(1);
            assertThat(plan.values().iterator().next()).hasSize(1);
            seen.add(plan.values().iterator().next().get(0).clientId());
        }
        assertThat(seen).containsExactlyInAnyOrder("m0", "m1", "m2");
    }

    @Test
    void shared_exact_subscription_is_indexed_on_the_partition_of_its_inner_filter() {
        DeliveryPlanner planner = planner(SharedStrategy.ROUND_ROBIN);
        subscribe("m1", "$share/g/" + TOPIC, "n1");
        assertThat(planner.plan(Partitioning.partitionFor(TOPIC, PARTITIONS), TOPIC, 1, null)
                        .nodes()
                        .keySet())
                .containsExactly("n1");
        // The shared filter as a topic matches nothing: members are matched by the inner filter only.
        String literal = "$share/g/" + TOPIC;
        assertThat(planner.plan(Partitioning.partitionFor(literal, PARTITIONS), literal, 1, null)
                        .nodes()
                        .keySet())
                .isEmpty();
    }

    private DeliveryPlanner planner(SharedStrategy strategy) {
        return new DeliveryPlanner(index, new SharedMemberChooser(strategy));
    }

    private static SortedMap<String, List<Target>> plan(DeliveryPlanner planner, String publisher) {
        return planner.plan(Partitioning.partitionFor(TOPIC, PARTITIONS), TOPIC, 1, publisher)
                .nodes();
    }

    private void subscribe(String clientId, String filter, String nodeId) {
        SubscriptionRecord s = new SubscriptionRecord(clientId, filter, nodeId, 1, false, false, 0, 1);
        index.apply(SubscriptionChange.decode(
                TopicNames.subscriptionsFor(filter), partitionOf(filter), s.key(), s.encode()));
    }

    private void unsubscribe(String clientId, String filter) {
        index.apply(SubscriptionChange.decode(
                TopicNames.subscriptionsFor(filter),
                partitionOf(filter),
                SubscriptionRecord.key(filter, clientId),
                null));
    }

    /** The partition the feed record lands on, as SubscriptionRecords places it. */
    private static int partitionOf(String filter) {
        var record = io.tributary.common.subscription.SubscriptionRecords.removal(filter, "x", 1, PARTITIONS);
        return record.partition() == null ? 0 : record.partition();
    }
}
