package io.tributary.routing.feed;

import io.tributary.common.kafka.GroupMembership;
import io.tributary.common.kafka.KafkaClients;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * Creates the two consumers of the routing loop, and holds the Admin-backed view of the feed's end offsets. They are created on the loop's own thread and never shared: a
 * Kafka consumer is not thread-safe.
 */
public final class FeedConsumers {

    private final KafkaClients clients;
    private final FeedEndOffsets feedEndOffsets;
    private final Map<String, Object> common;
    private final String clientIdPrefix;
    private final String groupId;
    private final GroupMembership membership;
    private final int maxPollRecords;

    public FeedConsumers(
            KafkaClients clients,
            Admin admin,
            Map<String, Object> common,
            String clientIdPrefix,
            String groupId,
            GroupMembership membership,
            int maxPollRecords) {
        this.clients = clients;
        this.feedEndOffsets = new FeedEndOffsets(admin);
        this.common = Map.copyOf(common);
        this.clientIdPrefix = clientIdPrefix;
        this.groupId = groupId;
        this.membership = membership;
        this.maxPollRecords = maxPollRecords;
    }

    public String groupId() {
        return groupId;
    }

    public GroupMembership membership() {
        return membership;
    }

    /**
     * Member of the routers' consumer group on the publish topic. Offsets are committed by hand once a batch's
     * outputs are acknowledged; a brand-new group starts at the earliest offset so that nothing published before the
     * first router started is lost. Rebalances are incremental and membership may be static ({@link GroupMembership}):
     * a router that joins, leaves or restarts does not make the others give up partitions they keep.
     *
     * <p>Isolation read_committed: transport nodes write exactly-once QoS 2 publishes in Kafka transactions, and the
     * copy of a transaction a killed node left undecided is aborted, never routed. Records of other producers are not
     * transactional and are read as before, once no earlier transaction on their partition is still open.
     */
    public Consumer<byte[], byte[]> publishConsumer() {
        Map<String, Object> config = base("publish");
        config.putAll(membership.consumerConfig(groupId));
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, maxPollRecords);
        return clients.consumer(config);
    }

    /**
     * Reader of the subscription feed: no group, partitions assigned by hand, always read from the beginning (the
     * topics are compacted, so the beginning is the current state of every subscription).
     */
    public Consumer<byte[], byte[]> subscriptionConsumer() {
        Map<String, Object> config = base("subscriptions");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return clients.consumer(config);
    }

    /** The feed's end offsets, over the Admin client's connection (see {@link FeedEndOffsets}). */
    public FeedEndOffsets feedEndOffsets() {
        return feedEndOffsets;
    }

    private Map<String, Object> base(String role) {
        Map<String, Object> config = new HashMap<>(common);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, membership.clientId(clientIdPrefix, role));
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        return config;
    }
}
