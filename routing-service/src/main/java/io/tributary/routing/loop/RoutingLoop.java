package io.tributary.routing.loop;

import io.tributary.common.kafka.PollLoop;
import io.tributary.common.kafka.TopicLayout;
import io.tributary.common.kafka.TopicNames;
import io.tributary.common.retry.Backoff;
import io.tributary.kafka.tracing.HopTracing;
import io.tributary.routing.config.KafkaSettings;
import io.tributary.routing.config.RoutingProperties;
import io.tributary.routing.fanout.DeliveryPlanner;
import io.tributary.routing.fanout.DownlinkFanout;
import io.tributary.routing.fanout.DownlinkTopicCache;
import io.tributary.routing.fanout.SharedMemberChooser;
import io.tributary.routing.feed.FeedConsumers;
import io.tributary.routing.index.SubscriptionIndex;
import io.tributary.routing.metrics.RoutingMetrics;
import io.tributary.routing.queue.SessionQueueProperties;
import io.tributary.sessionqueue.QueueAppender;
import java.time.Duration;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The routing thread. Started and stopped with the application context: it makes sure the shared topics exist,
 * then runs {@link RoutingWorker}s one after the other, a new one after each failure the worker could not retry by
 * itself. It never exits while the service runs, whatever Kafka does.
 */
public final class RoutingLoop extends PollLoop implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(RoutingLoop.class);
    private static final Duration STOP_JOIN = Duration.ofSeconds(15);

    private final Admin admin;
    private final TopicLayout layout;
    private final FeedConsumers consumers;
    private final SubscriptionIndex index;
    private final RoutingMetrics metrics;
    private final RoutingStatus status;
    private final RoutingWorker.Settings workerSettings;
    private final DownlinkTopicCache downlinkTopics;
    private final DownlinkFanout fanout;
    private final RetryPolicy retry;

    private volatile RoutingWorker currentWorker;
    private boolean partitionCountWarned;

    public RoutingLoop(
            Admin admin,
            Producer<byte[], byte[]> producer,
            FeedConsumers consumers,
            SubscriptionIndex index,
            RoutingMetrics metrics,
            RoutingStatus status,
            KafkaSettings kafka,
            RoutingProperties routing,
            QueueAppender queues,
            SessionQueueProperties queueProperties,
            HopTracing tracing) {
        super("routing-loop", false, new Backoff(routing.retryBackoffMin(), routing.retryBackoffMax()), STOP_JOIN);
        this.admin = admin;
        this.layout = kafka.topicLayout();
        this.consumers = consumers;
        this.index = index;
        this.metrics = metrics;
        this.status = status;
        this.workerSettings = new RoutingWorker.Settings(
                routing.pollTimeout(), routing.feedCatchUpTimeout(), kafka.requestTimeout(), routing.commitInterval());
        this.downlinkTopics = new DownlinkTopicCache(
                admin,
                routing.downlinkRefreshInterval(),
                routing.downlinkMissRefreshInterval(),
                kafka.requestTimeout(),
                System::nanoTime);
        this.fanout = new DownlinkFanout(
                producer,
                new DeliveryPlanner(index, new SharedMemberChooser(routing.sharedStrategy())),
                downlinkTopics,
                metrics,
                routing.produceTimeout(),
                queues,
                queueProperties.commandTimeout(),
                this::isRunning,
                tracing);
        this.retry = new RetryPolicy(backoff(), status, this::pause);
    }

    @Override
    public void start() {
        startLoop();
    }

    @Override
    protected void wakeup() {
        RoutingWorker worker = currentWorker;
        if (worker != null) {
            worker.wakeup();
        }
    }

    /** Stops before the web server and the Kafka clients it uses (beans are destroyed after lifecycles stop). */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 1024;
    }

    @Override
    protected void onLoopStart() {
        log.info(
                "Routing loop started (group {}, protocol {}, {})",
                consumers.groupId(),
                consumers.membership().protocol(),
                consumers.membership().isStatic()
                        ? "static member " + consumers.membership().instanceId()
                        : "dynamic member");
    }

    /**
     * One incarnation: makes sure the shared topics exist, then routes with a new worker until the service stops or
     * the worker fails in a way it could not retry by itself (then the loop waits its back-off and starts another).
     */
    @Override
    protected void pollOnce() {
        // The status stays STARTING until the first worker runs, then RUNNING or RETRYING (set by the retry policy).
        layout.ensureSharedTopics(admin);
        warnIfPartitionCountDiffers();
        runWorker();
    }

    @Override
    protected void onFailure(RuntimeException failure, Duration retryIn) {
        boolean interrupted = failure instanceof WakeupException || failure instanceof InterruptException;
        retry.failed(interrupted ? "routing loop interrupted" : "routing loop failed", failure);
    }

    @Override
    protected void onLoopEnd() {
        index.clear();
        status.enter(RoutingStatus.State.STOPPED);
        log.info("Routing loop stopped");
    }

    /**
     * The router follows the topic as it is; a different configured count means that whoever produces the feed
     * with the same configuration places exact subscriptions on partitions that publishes of their topic never use.
     */
    private void warnIfPartitionCountDiffers() {
        int actual = TopicLayout.publishPartitionsOf(admin);
        if (actual != layout.publishPartitions() && !partitionCountWarned) {
            partitionCountWarned = true;
            log.warn(
                    "{} has {} partitions but TRIBUTARY_PUBLISH_PARTITIONS is {}: every service must use {}",
                    TopicNames.PUBLISH,
                    actual,
                    layout.publishPartitions(),
                    actual);
        }
    }

    private void runWorker() {
        try (RoutingWorker worker = new RoutingWorker(
                workerSettings, consumers, index, metrics, status, retry, downlinkTopics, fanout, this::isRunning)) {
            currentWorker = worker;
            if (!isRunning()) {
                // stop() ran before the worker was visible to it, so nobody woke it: do not start polling.
                return;
            }
            worker.run();
        } finally {
            currentWorker = null;
        }
    }
}
