package io.tributary.transport.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetric;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.tributary.common.sys.DataPathHop;
import io.tributary.kafka.support.KafkaClientMeters;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** The meters of a transport node, created once so hot paths only increment. */
public final class TransportMetrics {

    /** Drop reasons shown from start-up; others appear the first time they happen. */
    static final String[] EAGER_DROP_REASONS = {
        "slow_consumer_qos0", "slow_consumer_bytes", "queue_full", "expired", "client_packet_size", "connection_closed"
    };

    /** Bucket range of the latency histograms: 0.1 ms resolution at the low end, where the data path should be. */
    private static final Duration LATENCY_MIN = Duration.ofNanos(100_000);

    private static final Duration LATENCY_MAX = Duration.ofSeconds(10);

    private final MeterRegistry registry;
    private final Counter[] publishesIn = new Counter[3];
    private final Counter[] publishesOut = new Counter[3];
    private final Timer produceLatency;
    private final Timer downlinkConsumeLatency;
    private final Timer downlinkToSocket;
    private final Counter mqttBytesIn;
    private final Counter mqttBytesOut;
    private final Counter connectsAccepted;
    private final Counter sessionQueueFailures;
    private final Counter qos2Duplicates;
    private final ConcurrentMap<String, Counter> connectsRefused = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Counter> drops = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Counter> protocolErrors = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Counter> readPauses = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Counter> aclDenials = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Counter> replays = new ConcurrentHashMap<>();
    private final Counter replayedMessages;

    public TransportMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (int qos = 0; qos < 3; qos++) {
            publishesIn[qos] = Counter.builder("tributary.publishes.in")
                    .description("PUBLISH packets received")
                    .tag("qos", Integer.toString(qos))
                    .register(registry);
            publishesOut[qos] = Counter.builder("tributary.publishes.out")
                    .description("PUBLISH packets sent")
                    .tag("qos", Integer.toString(qos))
                    .register(registry);
        }
        // Latency per hop of the data path, as histograms (buckets), so percentiles aggregate across nodes.
        produceLatency = Timer.builder("tributary.kafka.produce.latency")
                .description("time from send to Kafka acknowledgement of a publish record")
                .publishPercentiles(0.5, 0.99)
                .publishPercentileHistogram()
                .minimumExpectedValue(LATENCY_MIN)
                .maximumExpectedValue(LATENCY_MAX)
                .register(registry);
        downlinkConsumeLatency = Timer.builder("tributary.kafka.consume.latency")
                .tag("topic", "downlink")
                .description("time from the downlink record's timestamp (routing produced it) to this node reading it")
                .publishPercentiles(0.5, 0.99)
                .publishPercentileHistogram()
                .minimumExpectedValue(LATENCY_MIN)
                .maximumExpectedValue(LATENCY_MAX)
                .register(registry);
        downlinkToSocket = Timer.builder("tributary.delivery.latency")
                .description("time from the poll that read a batch of downlink records to its PUBLISH packets being"
                        + " written and flushed on one event loop (one sample per batch and event loop)")
                .publishPercentiles(0.5, 0.99)
                .publishPercentileHistogram()
                .minimumExpectedValue(LATENCY_MIN)
                .maximumExpectedValue(LATENCY_MAX)
                .register(registry);
        mqttBytesIn = Counter.builder("tributary.mqtt.bytes.in")
                .description("MQTT bytes read from clients")
                .register(registry);
        mqttBytesOut = Counter.builder("tributary.mqtt.bytes.out")
                .description("MQTT bytes written to clients")
                .register(registry);
        // Registered up front so dashboards and alerts see them at zero rather than absent.
        for (String reason : EAGER_DROP_REASONS) {
            dropped(reason, 0);
        }
        replayedMessages = Counter.builder("tributary.replayed.messages")
                .description("messages read from the publish topic's history for replays")
                .register(registry);
        connectsAccepted =
                Counter.builder("tributary.connects").tag("result", "accepted").register(registry);
        sessionQueueFailures = Counter.builder("tributary.session.queue.failures")
                .description("Session queue commands that failed (retried, or the message comes again later)")
                .register(registry);
        qos2Duplicates = Counter.builder("tributary.qos2.duplicates")
                .description(
                        "Re-sent QoS 2 publishes found stored by a committed marker: acknowledged, not stored again")
                .register(registry);
    }

    public void gaugeConnections(Supplier<Number> connections) {
        Gauge.builder("tributary.connections", connections)
                .description("open MQTT connections (after CONNACK)")
                .register(registry);
    }

    public void gaugeOutboundHeldBytes(Supplier<Number> bytes) {
        Gauge.builder("tributary.outbound.held.bytes", bytes)
                .description("bytes of outbound QoS 1/2 messages held for subscribers (in flight and queued)")
                .register(registry);
    }

    public void gaugeUplinkPendingBytes(Supplier<Number> bytes) {
        Gauge.builder("tributary.uplink.pending.bytes", bytes)
                .description("bytes of publish records handed to Kafka and not yet acknowledged")
                .register(registry);
    }

    /**
     * Memory held by Netty's buffers (socket output waiting for slow clients, among others): direct memory is not in
     * the JVM heap metrics, so without this a subscriber that does not read would grow the process unseen.
     */
    public void gaugeNettyMemory(ByteBufAllocator allocator) {
        if (allocator instanceof ByteBufAllocatorMetricProvider provider) {
            ByteBufAllocatorMetric metric = provider.metric();
            Gauge.builder("tributary.netty.memory.used", metric, ByteBufAllocatorMetric::usedDirectMemory)
                    .baseUnit("bytes")
                    .tag("area", "direct")
                    .register(registry);
            Gauge.builder("tributary.netty.memory.used", metric, ByteBufAllocatorMetric::usedHeapMemory)
                    .baseUnit("bytes")
                    .tag("area", "heap")
                    .register(registry);
        }
    }

    /** Reading from a client was paused (TCP backpressure), by reason. */
    public void readPaused(String reason) {
        readPauses
                .computeIfAbsent(
                        reason,
                        r -> Counter.builder("tributary.reads.paused")
                                .tag("reason", r)
                                .register(registry))
                .increment();
    }

    public void publishIn(int qos) {
        publishesIn[qos].increment();
    }

    public void publishOut(int qos) {
        publishesOut[qos].increment();
    }

    /** {@code count} PUBLISH packets of one QoS sent by one batch: one increment per batch, not per packet. */
    public void publishesOut(int qos, long count) {
        if (count > 0) {
            publishesOut[qos].increment((double) count);
        }
    }

    /** A batch of downlink records was written to the sockets of one event loop {@code nanos} after its poll. */
    /** The timers of the data-path hops this node measures, for its {@code $SYS} latency figures. */
    public Map<DataPathHop, Timer> hopTimers() {
        return Map.of(
                DataPathHop.PUBLISH_ACK, produceLatency,
                DataPathHop.DOWNLINK_TO_NODE, downlinkConsumeLatency,
                DataPathHop.NODE_TO_SOCKET, downlinkToSocket);
    }

    public void downlinkToSocket(long nanos) {
        downlinkToSocket.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** PUBLISH packets received since the node started, all QoS ($SYS/broker/nodes/.../messages/received). */
    public long publishesInTotal() {
        return total(publishesIn);
    }

    /** PUBLISH packets sent since the node started, all QoS. */
    public long publishesOutTotal() {
        return total(publishesOut);
    }

    private static long total(Counter[] counters) {
        double sum = 0;
        for (Counter c : counters) {
            sum += c.count();
        }
        return (long) sum;
    }

    /** MQTT bytes read from clients, counted by the connection pipelines' ByteCountingHandler. */
    public Counter mqttBytesIn() {
        return mqttBytesIn;
    }

    /** MQTT bytes written to clients, counted by the connection pipelines' ByteCountingHandler. */
    public Counter mqttBytesOut() {
        return mqttBytesOut;
    }

    /** A downlink record read {@code millis} after its timestamp (clock skew between hosts may make it negative). */
    public void downlinkConsumeLatency(long millis) {
        downlinkConsumeLatency.record(Math.max(0, millis), TimeUnit.MILLISECONDS);
    }

    public void produceLatency(long nanos) {
        produceLatency.record(nanos, TimeUnit.NANOSECONDS);
    }

    public void connectAccepted() {
        connectsAccepted.increment();
    }

    public void connectRefused(String reason) {
        connectsRefused
                .computeIfAbsent(
                        reason,
                        r -> Counter.builder("tributary.connects")
                                .tag("result", "refused")
                                .tag("reason", r)
                                .register(registry))
                .increment();
    }

    /** A message that was not delivered to one subscriber, by reason. */
    public void dropped(String reason) {
        dropped(reason, 1);
    }

    private void dropped(String reason, int count) {
        drops.computeIfAbsent(
                        reason,
                        r -> Counter.builder("tributary.deliveries.dropped")
                                .tag("reason", r)
                                .register(registry))
                .increment(count);
    }

    /** A replay of history to a subscriber, by outcome ({@code started}, {@code refused}, {@code failed}). */
    public void replay(String outcome) {
        replays.computeIfAbsent(
                        outcome,
                        o -> Counter.builder("tributary.replays")
                                .tag("outcome", o)
                                .description("replays of the publish topic's history asked for in a SUBSCRIBE")
                                .register(registry))
                .increment();
    }

    /** Messages of one replay's history, handed over for sending. */
    public void replayedMessages(int count) {
        replayedMessages.increment(count);
    }

    /** A PUBLISH or SUBSCRIBE refused by the connection's ACL ({@code action} publish / subscribe). */
    public void aclDenied(String action) {
        aclDenials
                .computeIfAbsent(
                        action,
                        a -> Counter.builder("tributary.acl.denied")
                                .tag("action", a)
                                .description("PUBLISH / SUBSCRIBE refused by the connection's ACL")
                                .register(registry))
                .increment();
    }

    /** A re-sent QoS 2 publish was stored already (by a node that died before its PUBREC): not stored again. */
    public void qos2Duplicate() {
        qos2Duplicates.increment();
    }

    /** A Redis command of the session queues failed (it is retried, or the message comes again later). */
    public void sessionQueueFailure() {
        sessionQueueFailures.increment();
    }

    /** A connection closed because of bad input, by cause. */
    public void protocolError(String cause) {
        protocolErrors
                .computeIfAbsent(
                        cause,
                        c -> Counter.builder("tributary.protocol.errors")
                                .tag("cause", c)
                                .register(registry))
                .increment();
    }

    /**
     * Kafka's own client metrics (request and fetch rates, batch sizes, records lag, rebalances) as Micrometer
     * meters tagged with the client id; closing the result removes them, when the client is closed.
     */
    public AutoCloseable bindKafkaClients(Object... clients) {
        return KafkaClientMeters.bind(registry, clients);
    }
}
