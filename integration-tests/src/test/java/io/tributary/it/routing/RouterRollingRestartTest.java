package io.tributary.it.routing;

import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import io.tributary.it.support.Clients;
import io.tributary.it.support.ExtraRouter;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.RoutersGroup;
import io.tributary.it.support.TributaryCluster;
import io.tributary.it.support.TributaryCluster.Service;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberAssignment;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.MemberToRemove;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A rolling restart of one router while QoS 1 traffic flows (issue 20). Three routers with static membership
 * ({@code TRIBUTARY_KAFKA_GROUP_INSTANCE_ID}) share the 4 publish partitions; one is stopped (SIGTERM) and started
 * again. With incremental rebalancing and static membership the other two never give up a partition (no revocation
 * in their rebalance listener), the restarted one gets its own partitions back, messages on the other routers'
 * partitions are not delayed past {@link #OTHERS_STALL_BOUND_MS}, and every acknowledged message arrives.
 *
 * <p>The stall is measured as the longest publish-to-delivery time per partition (publisher and subscriber are in
 * this JVM, so one clock); the figures are printed for docs/benchmarks.md.
 */
@ExtendWith(LogsOnFailure.class)
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class RouterRollingRestartTest {

    private static final int PARTITIONS = 4;
    private static final int TOPICS = 16;
    private static final int MESSAGES_PER_SECOND = 100;
    /**
     * Longest publish-to-delivery time allowed for a message on a partition the rolled router does not own. Normal
     * delivery takes milliseconds; an eager rebalance makes every router revoke everything and rebuild its index,
     * which takes seconds.
     */
    private static final long OTHERS_STALL_BOUND_MS = 1_500;

    private static final Pattern OWNING = Pattern.compile("now owning \\[([0-9, ]*)\\]");

    /** The routers' consumer group (routing-service's default {@code TRIBUTARY_ROUTING_GROUP}). */
    private static final String ROUTING_GROUP = "tributary-routing";

    private static final String PUBLISH_TOPIC = "tributary.publish";

    private static TributaryCluster cluster;
    private static final Map<String, ExtraRouter> routers = new LinkedHashMap<>();

    @BeforeAll
    static void startRouters() throws Exception {
        cluster = TributaryCluster.shared();
        // Static members keep their partitions while they are gone for less than the group's session timeout: that
        // is what the test is about, not how fast a router starts. On a loaded CI box a restart took 57.5 s, past
        // the default 45 s, and the others rebalanced; the group's own session timeout goes to the broker's
        // maximum for this test (the embedded broker allows 120 s) and back to the cluster's after it.
        RoutersGroup.sessionTimeout(cluster.kafkaBootstrapServers(), Duration.ofSeconds(120));
        // Only the routers of this test may own partitions, so that the stall of one of them is visible.
        cluster.stop(Service.ROUTING);
        for (String name : List.of("roll-a", "roll-b", "roll-c")) {
            routers.put(name, cluster.startRouter(name, Map.of("TRIBUTARY_KAFKA_GROUP_INSTANCE_ID", name)));
        }
    }

    /**
     * Static members keep their partitions for the group's session timeout (here 120 s) after they stop: that is the point
     * of static membership. So the test's routers are removed from the group explicitly, and the next test starts
     * only once the shared router owns every partition again; otherwise publishes of the following tests would wait
     * unrouted for up to the session timeout.
     */
    @AfterAll
    static void restoreSharedRouter() throws Exception {
        routers.values().forEach(ExtraRouter::close);
        RoutersGroup.sessionTimeout(cluster.kafkaBootstrapServers(), RoutersGroup.SESSION_TIMEOUT);
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.kafkaBootstrapServers()))) {
            try {
                admin.removeMembersFromConsumerGroup(
                                ROUTING_GROUP,
                                new RemoveMembersFromConsumerGroupOptions(routers.keySet().stream()
                                        .map(MemberToRemove::new)
                                        .toList()))
                        .all()
                        .get(30, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                // Already gone (their leave reached the coordinator first): the wait below covers it.
                System.out.println("[roll] removing the static members: " + e.getCause());
            }
            cluster.restart(Service.ROUTING);
            int partitions = admin.describeTopics(List.of(PUBLISH_TOPIC))
                    .allTopicNames()
                    .get(30, TimeUnit.SECONDS)
                    .get(PUBLISH_TOPIC)
                    .partitions()
                    .size();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            int owned = 0;
            while (System.nanoTime() < deadline) {
                ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(ROUTING_GROUP))
                        .all()
                        .get(30, TimeUnit.SECONDS)
                        .get(ROUTING_GROUP);
                owned = (int) group.members().stream()
                        .flatMap(m -> m.assignment().topicPartitions().stream())
                        .filter(tp -> tp.topic().equals(PUBLISH_TOPIC))
                        .distinct()
                        .count();
                boolean onlyShared = group.members().stream()
                        .noneMatch(m ->
                                m.groupInstanceId().filter(routers::containsKey).isPresent());
                if (owned == partitions && onlyShared) {
                    return;
                }
                Thread.sleep(250);
            }
            throw new AssertionError("the shared router owns " + owned + " of " + partitions
                    + " publish partitions 90 s after the test's routers left");
        }
    }

    @Test
    void rolling_one_router_leaves_the_others_partitions_alone() throws Exception {
        Map<String, Set<Integer>> owners = awaitStableOwnership();
        String rolled = owners.entrySet().stream()
                .filter(e -> !e.getValue().isEmpty())
                .map(Map.Entry::getKey)
                .filter(n -> !n.equals("roll-a"))
                .findFirst()
                .orElseThrow();
        Set<Integer> rolledPartitions = owners.get(rolled);
        System.out.println("[roll] ownership before the roll: " + owners + "; rolling " + rolled);

        String prefix = "it/roll/" + Clients.id("t");
        List<String> topics = new ArrayList<>();
        for (int i = 0; i < TOPICS; i++) {
            topics.add(prefix + "/" + i);
        }
        Map<Integer, Long> sentAt = new ConcurrentHashMap<>();
        Map<Integer, Long> receivedAt = new ConcurrentHashMap<>();
        Mqtt5AsyncClient subscriber =
                Clients.hive5(cluster.mqttPort(1), Clients.id("rsub")).toAsync();
        subscriber.publishes(MqttGlobalPublishFilter.ALL, publish -> {
            int seq = Integer.parseInt(new String(publish.getPayloadAsBytes(), StandardCharsets.UTF_8));
            receivedAt.putIfAbsent(seq, System.nanoTime());
        });
        subscriber.connectWith().cleanStart(true).send().get(30, TimeUnit.SECONDS);
        for (String topic : topics) {
            // Exact subscriptions: each lives on its topic's partition and is indexed by that partition's owner.
            subscriber
                    .subscribeWith()
                    .topicFilter(topic)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send()
                    .get(30, TimeUnit.SECONDS);
        }
        Mqtt5BlockingClient publisher = Clients.hive5(cluster.mqttPort(0), Clients.id("rpub"));
        publisher.connectWith().cleanStart(true).send();

        Map<String, Long> logLines = new HashMap<>();
        AtomicBoolean publishing = new AtomicBoolean(true);
        Thread publishLoop = new Thread(() -> publish(publisher, topics, sentAt, publishing), "roll-publisher");
        publishLoop.start();
        long restartMs;
        try {
            TimeUnit.SECONDS.sleep(5);
            for (String name : routers.keySet()) {
                logLines.put(name, (long) logLines(name).size());
            }
            long t0 = System.nanoTime();
            routers.get(rolled).restart();
            restartMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            TimeUnit.SECONDS.sleep(8);
        } finally {
            publishing.set(false);
            publishLoop.join(30_000);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline && !receivedAt.keySet().containsAll(sentAt.keySet())) {
            Thread.sleep(200);
        }
        subscriber.disconnect();
        publisher.disconnect();

        long[] stallMs = new long[PARTITIONS];
        for (Map.Entry<Integer, Long> sent : sentAt.entrySet()) {
            Long received = receivedAt.get(sent.getKey());
            int partition = partitionOf(topics.get(sent.getKey() % TOPICS));
            long latency =
                    received == null ? Long.MAX_VALUE : TimeUnit.NANOSECONDS.toMillis(received - sent.getValue());
            stallMs[partition] = Math.max(stallMs[partition], latency);
        }
        long othersStall = 0;
        long rolledStall = 0;
        for (int p = 0; p < PARTITIONS; p++) {
            if (rolledPartitions.contains(p)) {
                rolledStall = Math.max(rolledStall, stallMs[p]);
            } else {
                othersStall = Math.max(othersStall, stallMs[p]);
            }
        }
        System.out.printf(
                "[roll] %d messages acknowledged, %d delivered; router %s (partitions %s) stopped and"
                        + " healthy again in %d ms; longest publish-to-delivery: %d ms on its partitions, %d ms on the others'"
                        + " (per partition %s)%n",
                sentAt.size(),
                receivedAt.size(),
                rolled,
                rolledPartitions,
                restartMs,
                rolledStall,
                othersStall,
                java.util.Arrays.toString(stallMs));

        assertThat(receivedAt.keySet())
                .as("every acknowledged QoS 1 message is delivered")
                .containsAll(sentAt.keySet());
        for (String name : routers.keySet()) {
            if (name.equals(rolled)) {
                continue;
            }
            List<String> after = logLines(name)
                    .subList(logLines.get(name).intValue(), logLines(name).size());
            assertThat(after)
                    .as("router %s gives up no partition while %s restarts", name, rolled)
                    .noneMatch(line -> line.contains("Publish partitions revoked"));
        }
        // Its rejoin is answered with its old assignment; allow the reconciliation a moment to reach its log.
        long ownershipDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < ownershipDeadline
                && !currentOwnership(rolled).equals(rolledPartitions)) {
            Thread.sleep(250);
        }
        assertThat(currentOwnership(rolled))
                .as("the restarted static member gets its own partitions back (group: %s)", describeGroup())
                .isEqualTo(rolledPartitions);
        assertThat(othersStall)
                .as("delivery on the partitions of the routers that kept running does not stall")
                .isLessThan(OTHERS_STALL_BOUND_MS);
    }

    /** Kafka's default partitioner on the record key (the MQTT topic), as transport and session-service place it. */
    private static int partitionOf(String topic) {
        return Utils.toPositive(Utils.murmur2(topic.getBytes(StandardCharsets.UTF_8))) % PARTITIONS;
    }

    private static void publish(
            Mqtt5BlockingClient publisher, List<String> topics, Map<Integer, Long> sentAt, AtomicBoolean publishing) {
        long interval = TimeUnit.SECONDS.toNanos(1) / MESSAGES_PER_SECOND;
        long next = System.nanoTime();
        for (int seq = 0; publishing.get(); seq++) {
            long t = System.nanoTime();
            var result = publisher
                    .publishWith()
                    .topic(topics.get(seq % TOPICS))
                    .payload(Integer.toString(seq).getBytes(StandardCharsets.UTF_8))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            if (result.getError().isEmpty()) {
                // Counted once acknowledged; the latency is measured from the send.
                sentAt.put(seq, t);
            }
            next += interval;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(wait);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** Waits until the three routers own disjoint sets that cover every partition, as their logs last said. */
    private static Map<String, Set<Integer>> awaitStableOwnership() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        Map<String, Set<Integer>> owners = new LinkedHashMap<>();
        while (System.nanoTime() < deadline) {
            owners.clear();
            Set<Integer> union = new TreeSet<>();
            int total = 0;
            for (String name : routers.keySet()) {
                Set<Integer> owned = currentOwnership(name);
                owners.put(name, owned);
                union.addAll(owned);
                total += owned.size();
            }
            if (union.size() == PARTITIONS
                    && total == PARTITIONS
                    && owners.values().stream().noneMatch(Set::isEmpty)
                    && groupConverged(owners)) {
                return owners;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("the routers did not settle on one owner per partition: " + owners);
    }

    /**
     * Whether the group coordinator has finished reconciling: the group is stable at its target assignment and every
     * router owns, as the broker sees it, what its log last said. The logs alone are not enough: while the routers
     * that joined one after the other are still converging, the logs can show disjoint sets that cover every
     * partition while the target assignment already moves one of them (a CI run rolled a router that was about to
     * hand partition 2 over, and it came back owning only partition 3).
     */
    private static boolean groupConverged(Map<String, Set<Integer>> logged) throws Exception {
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.kafkaBootstrapServers()))) {
            ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(ROUTING_GROUP))
                    .all()
                    .get(30, TimeUnit.SECONDS)
                    .get(ROUTING_GROUP);
            if (group.groupState() != GroupState.STABLE
                    || group.groupEpoch().isEmpty()
                    || !group.groupEpoch().equals(group.targetAssignmentEpoch())
                    || group.members().size() != logged.size()) {
                return false;
            }
            for (MemberDescription member : group.members()) {
                Set<Integer> assigned = publishPartitions(member.assignment());
                boolean atTarget = member.targetAssignment()
                        .map(target -> publishPartitions(target).equals(assigned))
                        .orElse(true);
                String name = member.groupInstanceId().orElse("");
                if (!atTarget
                        || !member.memberEpoch().equals(group.groupEpoch())
                        || !assigned.equals(logged.get(name))) {
                    return false;
                }
            }
            return true;
        }
    }

    private static String describeGroup() throws Exception {
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.kafkaBootstrapServers()))) {
            return admin.describeConsumerGroups(List.of(ROUTING_GROUP))
                    .all()
                    .get(30, TimeUnit.SECONDS)
                    .get(ROUTING_GROUP)
                    .toString();
        }
    }

    private static Set<Integer> publishPartitions(MemberAssignment assignment) {
        Set<Integer> partitions = new TreeSet<>();
        assignment.topicPartitions().stream()
                .filter(tp -> tp.topic().equals(PUBLISH_TOPIC))
                .forEach(tp -> partitions.add(tp.partition()));
        return partitions;
    }

    private static Set<Integer> currentOwnership(String router) throws Exception {
        Set<Integer> owned = new TreeSet<>();
        List<String> lines = logLines(router);
        for (int i = lines.size() - 1; i >= 0; i--) {
            Matcher m = OWNING.matcher(lines.get(i));
            if (m.find()) {
                for (String p : m.group(1).split(",")) {
                    if (!p.isBlank()) {
                        owned.add(Integer.parseInt(p.strip()));
                    }
                }
                return owned;
            }
        }
        return owned;
    }

    private static List<String> logLines(String router) throws Exception {
        Path log = routers.get(router).process().logFile();
        return Files.readAllLines(log, StandardCharsets.UTF_8);
    }
}
