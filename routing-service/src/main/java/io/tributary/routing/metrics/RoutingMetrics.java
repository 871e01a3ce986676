package io.tributary.routing.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.tributary.common.sys.DataPathHop;
import io.tributary.kafka.support.KafkaClientMeters;
import io.tributary.routing.index.SubscriptionIndex;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.Consumer;
import org.springframework.stereotype.Component;

/** The routing service's meters, exposed on {@code /actuator/prometheus}. */
@Component
public class RoutingMetrics {

    /** Why a delivery to a node was not produced: its downlink topic does not exist (the node is gone). */
    public static final String DROP_UNKNOWN_NODE = "unknown_node";
    /** Why a publish was not routed at all: it has no key, so no MQTT topic. */
    public static final String DROP_NO_TOPIC = "no_topic";
    /** Why a message for a persistent session was not queued: the session has no queue (it ended meanwhile). */
    public static final String DROP_NO_QUEUE = "no_session_queue";
    /** Why a queued message was dropped: its session queue was full (which one goes depends on the policy). */
    public static final String DROP_QUEUE_FULL = "session_queue_full";
    /**
     * Why a queued message was dropped: its session queue's bytes would have gone past TRIBUTARY_QUEUE_LIMIT_BYTES
     * (the oldest made room, or the newest was refused, by the policy; or the message alone was larger).
     */
    public static final String DROP_QUEUE_BYTES = "session_queue_bytes";

    /** Bucket range of the latency histograms: 0.1 ms resolution at the low end, where the data path should be. */
    private static final Duration LATENCY_MIN = Duration.ofNanos(100_000);

    private static final Duration LATENCY_MAX = Duration.ofSeconds(10);

    private final MeterRegistry registry;
    private final Counter publishesIn;
    private final Counter deliveriesOut;
    private final Counter malformedSubscriptions;
    private final Timer produceLatency;
    private final Timer publishConsumeLatency;
    private final Timer batchLatency;
    private final Counter queued;
    private final Counter queueReplaySkipped;
    private final Counter wakeups;
    private final Counter wakeupsFailed;
    private final Map<String, Counter> dropped = new ConcurrentHashMap<>();
    private final ConsumerLag lag = new ConsumerLag();

    public RoutingMetrics(MeterRegistry registry, SubscriptionIndex index) {
        this.registry = registry;
        publishesIn = Counter.builder("tributary.routing.publishes.in")
                .description("Publish records routed (counted once their outputs are acknowledged)")
                .register(registry);
        deliveriesOut = Counter.builder("tributary.routing.deliveries.out")
                .description("Records acknowledged on downlink topics")
                .register(registry);
        malformedSubscriptions = Counter.builder("tributary.routing.subscriptions.malformed")
                .description("Subscription feed records skipped because they could not be decoded")
                .register(registry);
        produceLatency = Timer.builder("tributary.kafka.produce.latency")
                .description("Time from send to acknowledgement of a produced record")
                .tag("service", "routing")
                .publishPercentiles(0.5, 0.99)
                .publishPercentileHistogram()
                .minimumExpectedValue(LATENCY_MIN)
                .maximumExpectedValue(LATENCY_MAX)
                .register(registry);
        // Latency per hop, as histograms (buckets) so that percentiles aggregate across routers.
        publishConsumeLatency = Timer.builder("tributary.kafka.consume.latency")
                .tag("topic", "publish")
                .description("time from the publish record's timestamp (the transport node produced it) to a router"
                        + " reading it")
                .publishPercentiles(0.5, 0.99)
                .publishPercentileHistogram()
                .minimumExpectedValue(LATENCY_MIN)
                .maximumExpectedValue(LATENCY_MAX)
                .register(registry);
        batchLatency = Timer.builder("tributary.routing.batch.latency")
                .description("time from the poll of a batch of publishes to its downlink records being acknowledged")
                .publishPercentiles(0.5, 0.99)
                .publishPercentileHistogram()
                .minimumExpectedValue(LATENCY_MIN)
                .maximumExpectedValue(LATENCY_MAX)
                .register(registry);
        queued = Counter.builder("tributary.routing.queued")
                .description("Messages appended to session queues of persistent sessions")
                .register(registry);
        queueReplaySkipped = Counter.builder("tributary.routing.queue.replays.skipped")
                .description("Appends skipped because the queue already held them (a batch routed again)")
                .register(registry);
        wakeups = Counter.builder("tributary.routing.session.wakeups")
                .description("Nodes told to read the queue of a persistent session that connected there")
                .tag("result", "sent")
                .register(registry);
        wakeupsFailed = Counter.builder("tributary.routing.session.wakeups")
                .description("Nodes told to read the queue of a persistent session that connected there")
                .tag("result", "failed")
                .register(registry);
        dropped(DROP_UNKNOWN_NODE);
        dropped(DROP_QUEUE_FULL);
        dropped(DROP_QUEUE_BYTES);
        Gauge.builder("tributary.routing.index.exact.filters", index, SubscriptionIndex::exactFilterCount)
                .description("Distinct exact filters of the owned partitions")
                .register(registry);
        Gauge.builder("tributary.routing.index.wildcard.filters", index, SubscriptionIndex::wildcardFilterCount)
                .description("Distinct wildcard filters")
                .register(registry);
        Gauge.builder("tributary.routing.index.offline", index, SubscriptionIndex::offlineCount)
                .description("Indexed subscriptions of offline sessions (not routed yet)")
                .register(registry);
        Gauge.builder(
                        "tributary.routing.partitions.owned",
                        index,
                        i -> i.ownedPartitions().size())
                .description("Publish partitions this router owns")
                .register(registry);
        Gauge.builder("tributary.routing.consumer.lag", lag, ConsumerLag::records)
                .description("Records of tributary.publish not yet read by this router, over its partitions")
                .register(registry);
    }

    /** The timers of the data-path hops a router measures, for its {@code $SYS} latency figures. */
    public Map<DataPathHop, Timer> hopTimers() {
        return Map.of(DataPathHop.PUBLISH_TO_ROUTER, publishConsumeLatency, DataPathHop.ROUTE, batchLatency);
    }

    /** The publish consumer whose lag the gauge reports (each routing worker has its own). */
    public void watchConsumerLag(Consumer<?, ?> publishConsumer) {
        lag.watch(publishConsumer);
    }

    /** The worker closed this consumer: report no lag until the next one starts. */
    public void forgetConsumerLag(Consumer<?, ?> publishConsumer) {
        lag.forget(publishConsumer);
    }

    public void publishesRouted(int count) {
        publishesIn.increment(count);
    }

    /** A publish record read {@code millis} after its timestamp (clock skew between hosts may make it negative). */
    public void publishConsumed(long millis) {
        publishConsumeLatency.record(Math.max(0, millis), TimeUnit.MILLISECONDS);
    }

    /** A batch polled {@code nanos} ago has had all its downlink records acknowledged. */
    public void batchRouted(long nanos) {
        batchLatency.record(nanos, TimeUnit.NANOSECONDS);
    }

    public void delivered(long sendStartNanos) {
        deliveriesOut.increment();
        produceLatency.record(System.nanoTime() - sendStartNanos, TimeUnit.NANOSECONDS);
    }

    public void dropped(String reason, int count) {
        dropped(reason).increment(count);
    }

    /** One message queued; older messages made room for it, by the message limit and by the byte budget. */
    public void queued(long droppedForCount, long droppedForBytes) {
        queued.increment();
        queueDropped(droppedForCount, droppedForBytes);
    }

    /** Messages dropped from session queues (or refused) by the message limit and by the byte budget. */
    public void queueDropped(long droppedForCount, long droppedForBytes) {
        if (droppedForCount > 0) {
            dropped(DROP_QUEUE_FULL).increment((double) droppedForCount);
        }
        if (droppedForBytes > 0) {
            dropped(DROP_QUEUE_BYTES).increment((double) droppedForBytes);
        }
    }

    public void queueReplaySkipped() {
        queueReplaySkipped.increment();
    }

    public void wakeSent() {
        wakeups.increment();
    }

    /** A wake-up record was not acknowledged: the session's queue waits for its next wake-up or connection. */
    public void wakeFailed() {
        wakeupsFailed.increment();
    }

    public void malformedSubscription() {
        malformedSubscriptions.increment();
    }

    private Counter dropped(String reason) {
        return dropped.computeIfAbsent(
                reason,
                r -> Counter.builder("tributary.routing.dropped")
                        .description("Deliveries or publishes not routed, by reason")
                        .tag("reason", r)
                        .register(registry));
    }

    /**
     * Kafka's own client metrics (request and fetch rates, batch sizes, records lag, rebalances) as Micrometer
     * meters tagged with the client id; closing the result removes them, when the client is closed.
     */
    public AutoCloseable bindKafkaClients(Object... clients) {
        return KafkaClientMeters.bind(registry, clients);
    }
}
