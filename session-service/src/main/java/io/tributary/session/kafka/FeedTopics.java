package io.tributary.session.kafka;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import io.tributary.common.kafka.TopicLayout;
import io.tributary.session.config.SessionServiceProperties;

/**
 * The topics this service writes to. The shared topics are created or checked at startup (the service does not
 * start against a cluster with a wrong layout), and the publish partition count is read back from the cluster:
 * exact subscriptions must be placed with the count the publish topic really has, not the configured one.
 */
@Component
public class FeedTopics {

    private static final Logger log = LoggerFactory.getLogger(FeedTopics.class);

    private static final Duration VISIBILITY_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration RETRY_PAUSE = Duration.ofMillis(250);

    private final Admin admin;
    private final TopicLayout layout;
    private final int publishPartitions;
    private final Set<String> knownDownlinkNodes = ConcurrentHashMap.newKeySet();

    public FeedTopics(Admin admin, SessionServiceProperties properties) {
        this.admin = admin;
        this.layout = properties.kafka().topicLayout();
        this.publishPartitions = whenVisible(() -> {
            layout.ensureSharedTopics(admin);
            return TopicLayout.publishPartitionsOf(admin);
        });
        log.info("Kafka topics ready; publish topic has {} partitions", publishPartitions);
    }

    /**
     * Runs a topic check again while the broker answers "unknown topic": right after a topic is created (by this
     * service or by another one starting at the same time) a describe can still miss it. Bounded by
     * {@link #VISIBILITY_TIMEOUT}.
     */
    static <T> T whenVisible(Supplier<T> check) {
        long deadline = System.nanoTime() + VISIBILITY_TIMEOUT.toNanos();
        while (true) {
            try {
                return check.get();
            } catch (IllegalStateException e) {
                if (!causedByUnknownTopic(e) || System.nanoTime() > deadline) {
                    throw e;
                }
                log.info("Kafka topics not visible yet, checking again: {}", e.getMessage());
                try {
                    Thread.sleep(RETRY_PAUSE.toMillis());
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    private static boolean causedByUnknownTopic(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof UnknownTopicOrPartitionException) {
                return true;
            }
        }
        return false;
    }

    /** Partition count of the publish topic, used to place exact-subscription records. */
    public int publishPartitions() {
        return publishPartitions;
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
            throw new KafkaUnavailableException("cannot check the downlink topic of node " + nodeId + ": "
                    + e.getMessage(), e);
        }
        knownDownlinkNodes.add(nodeId);
    }
}
