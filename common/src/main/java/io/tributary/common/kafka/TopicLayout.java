package io.tributary.common.kafka;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * How Tributary's topics are laid out — the one configuration type every service binds (under its
 * {@code ...kafka.topics} prefix, from the same environment variables), because whichever service starts first
 * creates the topics. Creates the topics when they are missing and checks the ones that exist, so every service can
 * start in any order against an empty cluster. Fails fast when the layout is wrong: an exact-subscription topic
 * whose partition count differs from the publish topic would silently misroute.
 *
 * <p>{@link TopicNames#QOS2_MARKERS} always has one partition: its records are small and few (QoS 2 messages between
 * storage and PUBREL), and a node checks one partition's high watermark to know every earlier transaction is decided.
 *
 * @param publishPartitions partitions of {@link TopicNames#PUBLISH}, {@link TopicNames#SUBSCRIPTIONS_EXACT} and
 *        {@link TopicNames#RETAINED}
 * @param wildcardPartitions partitions of {@link TopicNames#SUBSCRIPTIONS_WILDCARD}, and of the metering topics
 *        ({@link TopicNames#METERING_DELTAS}, {@link TopicNames#METERING}): both carry little, keyed by tenant
 * @param downlinkPartitions partitions of each node's downlink topic
 * @param replicationFactor replication factor of every topic (3 in production, 1 on a single broker)
 * @param downlinkRetention how long undelivered downlink records are kept; they only serve live connections
 * @param minInsyncReplicas {@code min.insync.replicas} of every created topic: with the producers' {@code acks=all}, a
 *        write is acknowledged only once this many replicas have it (2 with replication factor 3: an acknowledged
 *        PUBLISH survives the loss of one broker, and one broker may be down without refusing writes)
 * @param creation whether missing topics are created, or only checked ({@link Creation#VERIFY}, for managed clusters
 *        where topics are provisioned by the platform and the services have no right to create them)
 */
public record TopicLayout(
        @Min(1) int publishPartitions,
        @Min(1) int wildcardPartitions,
        @Min(1) int downlinkPartitions,
        @Min(1) @Max(Short.MAX_VALUE) short replicationFactor,
        @NotNull Duration downlinkRetention,
        @Min(1) @Max(Short.MAX_VALUE) short minInsyncReplicas,
        @NotNull Creation creation) {

    /** What a service does about topics at start-up. */
    public enum Creation {
        /** Creates the missing topics (with this layout) and checks the existing ones. */
        CREATE,
        /** Never creates a topic: checks that every topic exists and fails, naming what to create, if one is missing. */
        VERIFY
    }

    private static final long TIMEOUT_SECONDS = 30;

    public TopicLayout {
        if (publishPartitions < 1 || wildcardPartitions < 1 || downlinkPartitions < 1 || replicationFactor < 1) {
            throw new IllegalArgumentException("partitions and replication factor must be positive");
        }
        if (downlinkRetention == null || downlinkRetention.isNegative() || downlinkRetention.isZero()) {
            throw new IllegalArgumentException("downlink retention must be positive");
        }
        if (minInsyncReplicas < 1 || minInsyncReplicas > replicationFactor) {
            // More in-sync replicas than replicas would refuse every acks=all write.
            throw new IllegalArgumentException("min.insync.replicas (" + minInsyncReplicas
                    + ") must be between 1 and the replication factor (" + replicationFactor + ")");
        }
        if (creation == null) {
            throw new IllegalArgumentException("topic creation mode is required");
        }
    }

    /** A single-broker layout that creates its topics (tests, the quick start). */
    public static TopicLayout singleBroker(
            int publishPartitions, int wildcardPartitions, int downlinkPartitions, Duration downlinkRetention) {
        return new TopicLayout(
                publishPartitions,
                wildcardPartitions,
                downlinkPartitions,
                (short) 1,
                downlinkRetention,
                (short) 1,
                Creation.CREATE);
    }

    /**
     * The shared topics: publish, retained, exact subscriptions, wildcard subscriptions, mapping rules, QoS 2 markers,
     * metering.
     */
    public void ensureSharedTopics(Admin admin) {
        Map<String, String> compacted = configs(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
        List<NewTopic> topics = new ArrayList<>();
        topics.add(new NewTopic(TopicNames.PUBLISH, publishPartitions, replicationFactor).configs(configs()));
        // Retained copies: compacted, so a new retained-store group reads only the last message of each topic.
        topics.add(new NewTopic(TopicNames.RETAINED, publishPartitions, replicationFactor).configs(compacted));
        topics.add(
                new NewTopic(TopicNames.SUBSCRIPTIONS_EXACT, publishPartitions, replicationFactor).configs(compacted));
        topics.add(new NewTopic(TopicNames.SUBSCRIPTIONS_WILDCARD, wildcardPartitions, replicationFactor)
                .configs(compacted));
        topics.add(new NewTopic(TopicNames.MAPPING_RULES, 1, replicationFactor).configs(compacted));
        // Compacted (a PUBREL tombstones its marker) and deleted after a week: a marker whose PUBREL never came (the
        // session ended) must not live forever; a re-send a week late is not de-duplicated.
        topics.add(new NewTopic(TopicNames.QOS2_MARKERS, 1, replicationFactor)
                .configs(configs(
                        TopicConfig.CLEANUP_POLICY_CONFIG,
                        TopicConfig.CLEANUP_POLICY_COMPACT + "," + TopicConfig.CLEANUP_POLICY_DELETE,
                        TopicConfig.RETENTION_MS_CONFIG,
                        Long.toString(Duration.ofDays(7).toMillis()))));
        // Metering (io.tributary.common.metering): the nodes' deltas are kept a week (session-service adds them into
        // PostgreSQL within seconds); the hourly totals are compacted, one live record per tenant and hour.
        topics.add(new NewTopic(TopicNames.METERING_DELTAS, wildcardPartitions, replicationFactor)
                .configs(configs(
                        TopicConfig.RETENTION_MS_CONFIG,
                        Long.toString(Duration.ofDays(7).toMillis()))));
        topics.add(new NewTopic(TopicNames.METERING, wildcardPartitions, replicationFactor).configs(compacted));
        provision(admin, topics);
        Map<String, TopicDescription> described =
                describe(admin, Set.of(TopicNames.PUBLISH, TopicNames.SUBSCRIPTIONS_EXACT));
        int publish = described.get(TopicNames.PUBLISH).partitions().size();
        int exact = described.get(TopicNames.SUBSCRIPTIONS_EXACT).partitions().size();
        if (publish != exact) {
            throw new IllegalStateException(TopicNames.PUBLISH + " has " + publish + " partitions but "
                    + TopicNames.SUBSCRIPTIONS_EXACT + " has " + exact + "; they must be equal");
        }
    }

    /** The downlink topic of one transport node. */
    public void ensureDownlinkTopic(Admin admin, String nodeId) {
        provision(
                admin,
                List.of(new NewTopic(TopicNames.downlink(nodeId), downlinkPartitions, replicationFactor)
                        .configs(configs(
                                TopicConfig.RETENTION_MS_CONFIG, Long.toString(downlinkRetention.toMillis())))));
    }

    /** The settings every created topic gets, plus {@code keyValues}. */
    private Map<String, String> configs(String... keyValues) {
        Map<String, String> configs = new java.util.TreeMap<>();
        configs.put(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Short.toString(minInsyncReplicas));
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            configs.put(keyValues[i], keyValues[i + 1]);
        }
        return configs;
    }

    private void provision(Admin admin, List<NewTopic> topics) {
        if (creation == Creation.CREATE) {
            create(admin, topics);
        } else {
            requireExisting(admin, topics);
        }
    }

    /** Fails naming every missing topic and how to create it: the operator's platform provisions topics. */
    private static void requireExisting(Admin admin, List<NewTopic> topics) {
        Set<String> existing;
        try {
            existing = admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted listing topics", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot list topics: " + e.getCause(), e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka did not answer within " + TIMEOUT_SECONDS + " s listing topics", e);
        }
        List<String> missing = new ArrayList<>();
        for (NewTopic topic : topics) {
            if (!existing.contains(topic.name())) {
                missing.add(topic.name() + " (" + topic.numPartitions() + " partitions, replication factor "
                        + topic.replicationFactor() + ", " + topic.configs() + ")");
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("missing Kafka topics, which TRIBUTARY_TOPIC_CREATION=verify never creates;"
                    + " create them: " + String.join("; ", missing));
        }
    }

    /** Partition count of the publish topic as it exists in the cluster (which may differ from the configured one). */
    public static int publishPartitionsOf(Admin admin) {
        return partitionsOf(admin, TopicNames.PUBLISH);
    }

    /** Partition count of a topic as it exists in the cluster. */
    public static int partitionsOf(Admin admin, String topic) {
        return describe(admin, Set.of(topic)).get(topic).partitions().size();
    }

    /**
     * Creates the missing topics and returns once the broker's metadata lists every one of them: right after
     * {@code CreateTopics} a broker may still answer {@code UNKNOWN_TOPIC_OR_PARTITION} for a new topic (CI saw it on
     * {@code DescribeConfigs}), and what the caller does next (produce, subscribe, describe) should not meet that.
     */
    private static void create(Admin admin, List<NewTopic> topics) {
        Set<String> names = new LinkedHashSet<>();
        for (NewTopic topic : topics) {
            names.add(topic.name());
            try {
                admin.createTopics(List.of(topic)).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw new IllegalStateException("cannot create topic " + topic.name() + ": " + e.getCause(), e);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted creating topic " + topic.name(), e);
            } catch (TimeoutException e) {
                throw new IllegalStateException(
                        "Kafka did not answer within " + TIMEOUT_SECONDS + " s creating topic " + topic.name(), e);
            }
        }
        describe(admin, names);
    }

    private static Map<String, TopicDescription> describe(Admin admin, Set<String> names) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (true) {
            try {
                return admin.describeTopics(names).allTopicNames().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted describing topics", e);
            } catch (ExecutionException e) {
                // Right after creation the broker's metadata may not list the topic yet.
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
                    throw new IllegalStateException("cannot describe topics " + names + ": " + e.getCause(), e);
                }
                pause();
            } catch (TimeoutException e) {
                throw new IllegalStateException(
                        "Kafka did not answer within " + TIMEOUT_SECONDS + " s describing topics " + names, e);
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted describing topics", e);
        }
    }
}
