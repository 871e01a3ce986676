package io.tributary.transport.delivery;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttReasonCodes.Disconnect;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.tributary.common.kafka.DownlinkType;
import io.tributary.common.kafka.HeaderValues;
import io.tributary.common.kafka.KafkaClients;
import io.tributary.common.kafka.PollLoop;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.kafka.TopicNames;
import io.tributary.common.queue.QueuedNotice;
import io.tributary.common.retry.Backoff;
import io.tributary.common.subscription.SharedTargets;
import io.tributary.common.tenant.TenantTopics;
import io.tributary.kafka.tracing.Hop;
import io.tributary.kafka.tracing.HopTracing;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.ConnectionRegistry;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.connection.OutboundMessage;
import io.tributary.transport.index.LocalSubscriptions;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.publish.PublishRecords;
import io.tributary.transport.sessionqueue.SessionQueueReader;
import io.tributary.transport.trace.PublishTracing;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Reads this node's downlink topic on one thread: deliveries are matched against the local subscriptions and
 * handed to each subscriber's event loop, one copy per client however many of its filters match; TAKEOVER and
 * DISCONNECT commands close local connections. The topic only serves live connections, so a (re)started node
 * begins at its end.
 *
 * <p>Fan-out is paid per batch, not per subscriber: the deliveries of one poll go to each event loop as one task
 * ({@link DeliveryBatch}), and a record's QoS 0 PUBLISH for MQTT 3 subscribers is encoded once and shared
 * ({@link SharedPublishFrame}). Commands are handed over in record order with the deliveries around them.
 */
public final class DownlinkConsumer extends PollLoop implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(DownlinkConsumer.class);
    private static final Duration POLL = Duration.ofMillis(500);

    /** The span of one downlink record: read from the downlink topic to its deliveries written to the sockets. */
    public static final String SPAN = PublishTracing.DELIVER_SPAN;

    private static final AttributeKey<Long> DELIVERIES = AttributeKey.longKey("tributary.deliveries");

    private final String nodeId;
    private final KafkaClients kafkaClients;
    private final LocalSubscriptions subscriptions;
    private final ConnectionRegistry registry;
    private final Disconnector disconnector;
    private final TransportMetrics metrics;
    /** Kafka's client metrics of the consumer; removed after it closes. */
    private volatile AutoCloseable kafkaClientMetrics = () -> {};

    private final SessionQueueReader queueReader;
    private final DeliveryBatch batch;
    private final HopTracing tracing;
    private volatile Consumer<byte[], byte[]> consumer;

    public DownlinkConsumer(
            String nodeId,
            KafkaClients kafkaClients,
            LocalSubscriptions subscriptions,
            ConnectionRegistry registry,
            OutboundDelivery delivery,
            Disconnector disconnector,
            TransportMetrics metrics,
            SessionQueueReader queueReader,
            HopTracing tracing) {
        super(
                "downlink-consumer",
                false,
                new Backoff(Duration.ofMillis(100), Duration.ofSeconds(5)),
                Duration.ofSeconds(10));
        this.queueReader = queueReader;
        this.tracing = tracing;
        this.nodeId = nodeId;
        this.kafkaClients = kafkaClients;
        this.subscriptions = subscriptions;
        this.registry = registry;
        this.disconnector = disconnector;
        this.metrics = metrics;
        this.batch = new DeliveryBatch(delivery);
    }

    @Override
    public void start() {
        Properties config = new Properties();
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "tributary-downlink-" + nodeId);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        // The broker answers a fetch as soon as one byte is there (fetch.min.bytes 1, the default): a record never
        // waits for fetch.max.wait.ms, which only bounds an empty fetch. So it stays at Kafka's 500 ms: a shorter
        // wait adds no latency benefit and makes an idle node send the broker a fetch every few milliseconds.
        consumer = kafkaClients.consumer(config);
        kafkaClientMetrics = metrics.bindKafkaClients(consumer);
        String topic = TopicNames.downlink(nodeId);
        List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
        List<TopicPartition> partitions = infos.stream()
                .map(p -> new TopicPartition(topic, p.partition()))
                .toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        // Resolve the end positions now, so nothing produced after start-up is skipped by a lazy seek.
        partitions.forEach(consumer::position);
        startLoop(consumer);
        log.info("Consuming downlink topic {} ({} partitions)", topic, partitions.size());
    }

    @Override
    protected void pollOnce() {
        ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
        long polledAt = System.currentTimeMillis();
        batch.begin(System.nanoTime());
        for (ConsumerRecord<byte[], byte[]> record : records) {
            metrics.downlinkConsumeLatency(polledAt - record.timestamp());
            dispatch(record);
        }
        batch.dispatch();
    }

    @Override
    protected void onLoopEnd() {
        consumer.close(Duration.ofSeconds(5));
        try {
            kafkaClientMetrics.close();
        } catch (Exception e) {
            log.debug("Removing the downlink consumer's metrics failed: {}", e.toString());
        }
    }

    void dispatch(ConsumerRecord<byte[], byte[]> record) {
        DownlinkType type;
        try {
            type = DownlinkType.fromHeader(RecordHeaders.readBytes(record.headers(), RecordHeaders.DOWNLINK_TYPE));
        } catch (IllegalArgumentException e) {
            log.warn(
                    "Skipping downlink record {}-{}@{} of unknown type",
                    record.topic(),
                    record.partition(),
                    record.offset());
            return;
        }
        if (record.key() == null) {
            return;
        }
        String key = new String(record.key(), StandardCharsets.UTF_8);
        if (type != DownlinkType.PUBLISH) {
            // Deliveries of earlier records reach the event loops before this command does.
            batch.dispatch();
        }
        switch (type) {
            case PUBLISH -> fanOut(key, record);
            case TAKEOVER -> closeOlder(key, RecordHeaders.readLong(record.headers(), RecordHeaders.EPOCH));
            case DISCONNECT -> closeByAdmin(key, record);
            case WAKE -> wake(key, Long.MAX_VALUE);
        }
    }

    /** The session queue of {@code clientId} holds messages up to at least {@code seq}: its connection reads them. */
    private void wake(String clientId, long seq) {
        ClientConnection connection = registry.get(clientId);
        if (connection != null && connection.queueBacked()) {
            connection.channel().eventLoop().execute(() -> queueReader.wake(connection, seq));
        }
    }

    private void fanOut(String topic, ConsumerRecord<byte[], byte[]> record) {
        // Before the delivery properties are read: an MQTT 5 subscriber gets the deliver span as its parent, unless
        // the publisher sent a traceparent user property of its own (user properties are passed on unchanged).
        Hop hop = tracing.continueTrace(SPAN, SpanKind.CONSUMER, record.headers());
        byte[] payload = record.value() == null ? new byte[0] : record.value();
        int qos = PublishRecords.qosOf(record.headers());
        boolean retain = RecordHeaders.readFlag(record.headers(), RecordHeaders.RETAIN);
        String publisher = RecordHeaders.readString(record.headers(), RecordHeaders.CLIENT_ID);
        MqttProperties mqtt5 = PublishRecords.deliveryProperties(record.headers(), System.currentTimeMillis());
        List<SharedTargets.Target> sharedTargets =
                SharedTargets.decode(RecordHeaders.readBytes(record.headers(), RecordHeaders.SHARED_TARGETS));
        Map<String, Long> queued = QueuedNotice.decode(RecordHeaders.readBytes(record.headers(), RecordHeaders.QUEUED));
        if (!queued.isEmpty()) {
            batch.dispatch();
            for (Map.Entry<String, Long> wake : queued.entrySet()) {
                wake(wake.getKey(), wake.getValue());
            }
        }
        HeaderValues.Position source = RecordHeaders.readSource(record.headers());
        int partition = source == null ? -1 : source.partition();
        long offset = source == null ? -1 : source.offset();
        SharedQos0 shared = new SharedQos0(topic, payload, mqtt5);
        int before = batch.added();
        try {
            subscriptions.matchPerClient(topic, publisher, sharedTargets, (connection, match) -> {
                if (connection.queueBacked() && queued.containsKey(connection.clientId())) {
                    // Served from its session queue, which holds this message.
                    return;
                }
                if (mqtt5 == null) {
                    metrics.dropped("expired");
                    return;
                }
                int deliveredQos = Math.min(qos, match.qos());
                boolean deliveredRetain = retain && match.retainAsPublished();
                if (deliveredQos == 0 && match.subscriptionIds().length == 0) {
                    batch.add(
                            connection,
                            shared.message(deliveredRetain),
                            connection.isMqtt5() ? null : shared.frame(deliveredRetain),
                            partition,
                            offset);
                    return;
                }
                batch.add(
                        connection,
                        new OutboundMessage(
                                topic, payload, deliveredQos, deliveredRetain, mqtt5, match.subscriptionIds()),
                        null,
                        partition,
                        offset);
            });
        } finally {
            shared.release();
        }
        if (hop != Hop.NONE) {
            batch.trace(hop.attribute(PublishTracing.MQTT_TOPIC, topic).count(DELIVERIES, batch.added() - before));
        }
    }

    /**
     * What the QoS 0 subscribers of one record share, made when the first one needs it: one message (nothing of a
     * QoS 0 message changes per subscriber) and, for MQTT 3 subscribers, one encoded frame, per RETAIN flag.
     */
    private static final class SharedQos0 {
        private final String topic;
        private final byte[] payload;
        private final MqttProperties mqtt5;
        private final OutboundMessage[] messages = new OutboundMessage[2];
        private final ByteBuf[] frames = new ByteBuf[2];

        SharedQos0(String topic, byte[] payload, MqttProperties mqtt5) {
            this.topic = topic;
            this.payload = payload;
            this.mqtt5 = mqtt5;
        }

        OutboundMessage message(boolean retain) {
            int i = retain ? 1 : 0;
            if (messages[i] == null) {
                messages[i] = new OutboundMessage(topic, payload, 0, retain, mqtt5);
            }
            return messages[i];
        }

        /** A new reference for one subscriber, which its event loop writes or releases. */
        ByteBuf frame(boolean retain) {
            int i = retain ? 1 : 0;
            if (frames[i] == null) {
                frames[i] = SharedPublishFrame.encodeMqtt3Qos0(
                        ByteBufAllocator.DEFAULT, TenantTopics.visible(topic), payload, retain);
            }
            return frames[i].retainedDuplicate();
        }

        /** Drops this thread's own references; the subscribers' references keep the frames alive. */
        void release() {
            for (ByteBuf frame : frames) {
                if (frame != null) {
                    frame.release();
                }
            }
        }
    }

    private void closeOlder(String clientId, Long epoch) {
        ClientConnection connection = registry.get(clientId);
        if (connection == null || epoch == null || connection.epoch() >= epoch) {
            return;
        }
        connection.channel().eventLoop().execute(() -> {
            connection.markTakenOver();
            disconnector.disconnect(
                    connection.channel(),
                    Disconnect.SESSION_TAKEN_OVER,
                    null,
                    "session taken over by a newer connection (epoch " + epoch + ")");
        });
    }

    private void closeByAdmin(String clientId, ConsumerRecord<byte[], byte[]> record) {
        Long epoch = RecordHeaders.readLong(record.headers(), RecordHeaders.EPOCH);
        Integer reason = RecordHeaders.readInt(record.headers(), RecordHeaders.REASON_CODE);
        ClientConnection connection = registry.get(clientId);
        if (connection == null || (epoch != null && connection.epoch() > epoch)) {
            return;
        }
        byte code = reason == null ? Disconnect.ADMINISTRATIVE_ACTION.byteValue() : reason.byteValue();
        connection
                .channel()
                .eventLoop()
                .execute(() ->
                        disconnector.disconnect(connection.channel(), code, null, "disconnected by an administrator"));
    }

    @Override
    public int getPhase() {
        // Start before the MQTT listener accepts clients, stop after it has closed them.
        return Integer.MAX_VALUE - 200;
    }
}
