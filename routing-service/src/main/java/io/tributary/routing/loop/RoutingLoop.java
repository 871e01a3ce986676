package io.tributary.routing.loop;

import java.util.concurrent.CountDownLatch;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import io.tributary.common.kafka.TopicLayout;
import io.tributary.common.kafka.TopicNames;
import io.tributary.routing.config.KafkaSettings;
import io.tributary.routing.config.RoutingProperties;
import io.tributary.routing.fanout.DeliveryPlanner;
import io.tributary.routing.fanout.DownlinkFanout;
import io.tributary.routing.fanout.DownlinkTopicCache;
import io.tributary.routing.fanout.SharedMemberChooser;
import io.tributary.routing.queue.SessionQueueAppender;
import io.tributary.routing.queue.SessionQueueProperties;
import io.tributary.routing.feed.FeedConsumers;
import io.tributary.routing.index.SubscriptionIndex;
import io.tributary.routing.metrics.RoutingMetrics;

/**
 * The routing thread. Started and stopped with the application context: it makes sure the shared topics exist,
 * then runs {@link RoutingWorker}s one after the other, a new one after each failure the worker could not retry by
 * itself. It never exits while the service runs, whatever Kafka does.
 */
public final class RoutingLoop implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(RoutingLoop.class);
    private static final long STOP_JOIN_MS = 15_000;

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
    private final CountDownLatch stopSignal = new CountDownLatch(1);

    private volatile boolean running;
    private volatile RoutingWorker currentWorker;
    private Thread thread;
    private boolean partitionCountWarned;

    public RoutingLoop(Admin admin, Producer<byte[], byte[]> producer, FeedConsumers consumers, SubscriptionIndex index,
            RoutingMetrics metrics, RoutingStatus status, KafkaSettings kafka, RoutingProperties routing,
            SessionQueueAppender queues, SessionQueueProperties queueProperties) {
        this.admin = admin;
        this.layout = kafka.topicLayout();
        this.consumers = consumers;
        this.index = index;
        this.metrics = metrics;
        this.status = status;
        this.workerSettings = new RoutingWorker.Settings(routing.pollTimeout(), routing.feedCatchUpTimeout(),
                kafka.requestTimeout(), routing.commitInterval());
        this.downlinkTopics = new DownlinkTopicCache(admin, routing.downlinkRefreshInterval(),
                routing.downlinkMissRefreshInterval(), kafka.requestTimeout(), System::nanoTime);
        this.fanout = new DownlinkFanout(producer, new DeliveryPlanner(index,
                new SharedMemberChooser(routing.sharedStrategy())), downlinkTopics, metrics,
                routing.produceTimeout(), queues, queueProperties.commandTimeout(), () -> running);
        this.retry = new RetryPolicy(routing.retryBackoffMin(), routing.retryBackoffMax(), status, stopSignal);
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        thread = new Thread(this::run, "routing-loop");
        thread.start();
    }

    @Override
    public void stop() {
        Thread toJoin;
        synchronized (this) {
            if (!running) {
                return;
            }
            running = false;
            toJoin = thread;
        }
        stopSignal.countDown();
        RoutingWorker worker = currentWorker;
        if (worker != null) {
            worker.wakeup();
        }
        try {
            toJoin.join(STOP_JOIN_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (toJoin.isAlive()) {
            log.warn("The routing loop did not stop within {} ms", STOP_JOIN_MS);
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Stops before the web server and the Kafka clients it uses (beans are destroyed after lifecycles stop). */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 1024;
    }

    private void run() {
        log.info("Routing loop started (group {}, protocol {}, {})", consumers.groupId(),
                consumers.membership().protocol(), consumers.membership().isStatic()
                        ? "static member " + consumers.membership().instanceId() : "dynamic member");
        // The status stays STARTING until the first worker runs, then RUNNING or RETRYING (set by the retry policy).
        while (running) {
            try {
                layout.ensureSharedTopics(admin);
                warnIfPartitionCountDiffers();
                runWorker();
            } catch (WakeupException | InterruptException e) {
                if (running) {
                    retry.failedThenWait("routing loop interrupted", e);
                }
            } catch (RuntimeException e) {
                if (running) {
                    retry.failedThenWait("routing loop failed", e);
                }
            }
        }
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
            log.warn("{} has {} partitions but TRIBUTARY_PUBLISH_PARTITIONS is {}: every service must use {}",
                    TopicNames.PUBLISH, actual, layout.publishPartitions(), actual);
        }
    }

    private void runWorker() {
        try (RoutingWorker worker = new RoutingWorker(workerSettings, consumers, index, metrics, status, retry,
                downlinkTopics, fanout, () -> running)) {
            currentWorker = worker;
            if (!running) {
                // stop() ran before the worker was visible to it, so nobody woke it: do not start polling.
                return;
            }
            worker.run();
        } finally {
            currentWorker = null;
        }
    }
}
