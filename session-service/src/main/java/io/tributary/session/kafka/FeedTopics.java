package io.tributary.session.kafka;

import io.tributary.common.kafka.TopicLayout;
import io.tributary.common.kafka.TopicNames;
import io.tributary.session.config.SessionServiceProperties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The topics this service writes to. The shared topics are created or checked at startup (the service does not
 * start against a cluster with a wrong layout), and the publish partition count is read back from the cluster:
 * exact subscriptions must be placed with the count the publish topic really has, not the configured one.
 */
@Component
public class FeedTopics {

    private static final Logger log = LoggerFactory.getLogger(FeedTopics.class);

    private final Admin admin;
    private final TopicLayout layout;
    private final int publishPartitions;
    private final int retainedPartitions;
    private final Set<String> knownDownlinkNodes = ConcurrentHashMap.newKeySet();

    public FeedTopics(Admin admin, SessionServiceProperties properties) {
        this.admin = admin;
        this.layout = properties.kafka().topics();
        layout.ensureSharedTopics(admin);
        this.publishPartitions = TopicLayout.publishPartitionsOf(admin);
        this.retainedPartitions = TopicLayout.partitionsOf(admin, TopicNames.RETAINED);
        log.info(
                "Kafka topics ready; publish topic has {} partitions, retained topic {}",
                publishPartitions,
                retainedPartitions);
    }

    /** Partition count of the publish topic, used to place exact-subscription records. */
    public int publishPartitions() {
        return publishPartitions;
    }

    /** Partition count of the retained topic, whose end offsets a SUBSCRIBE waits for. */
    public int retainedPartitions() {
        return retainedPartitions;
    }

    /**
     * Makes sure a node's downlink topic exists before a command is produced to it: the node may be gone (crashed
     * transport, deleted topic), and a send to a missing topic would block for {@code max.block.ms} and fail the
     * CONNECT of every client that was on it. Checked once per node id per process.
     */
    public void ensureDownlink(String nodeId) {
        if (knownDownlinkNodes.contains(nodeId)) {
            return;
        }
        try {
            layout.ensureDownlinkTopic(admin, nodeId);
        } catch (IllegalStateException e) {
            throw new KafkaUnavailableException(
                    "cannot check the downlink topic of node " + nodeId + ": " + e.getMessage(), e);
        }
        knownDownlinkNodes.add(nodeId);
    }
}
