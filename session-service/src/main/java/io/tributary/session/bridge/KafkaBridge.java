package io.tributary.session.bridge;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.tributary.common.kafka.KafkaClients;
import io.tributary.common.kafka.PollLoop;
import io.tributary.common.kafka.PublishRecordFormat;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.mapping.MqttTopicTemplate;
import io.tributary.common.retry.Backoff;
import io.tributary.kafka.tracing.Hop;
import io.tributary.kafka.tracing.HopTracing;
import io.tributary.session.kafka.KafkaUnavailableException;
import io.tributary.session.kafka.RecordSender;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Kafka-to-MQTT rule at work on one thread: consumes the rule's topic in the rule's consumer group and writes
 * each record as a publish record on {@code tributary.publish}, the same record an MQTT client's PUBLISH becomes, so
 * routing delivers it to online subscribers and to the session queues of offline persistent ones, and the retained
 * store keeps it when it is retained. Offsets are committed only after Kafka acknowledged every publish record of the
 * batch; when it did not, the batch is read again (at least once, never lost).
 */
final class KafkaBridge extends PollLoop {

    private static final Logger log = LoggerFactory.getLogger(KafkaBridge.class);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration RETRY_PAUSE = Duration.ofSeconds(1);
    /** The publisher a subscriber sees (no-local compares with it); never a real client's id. */
    static final String CLIENT_ID_PREFIX = "$tributary-bridge-";

    private static final String NODE_ID = "kafka-bridge";
    /** The span of one record of a rule: read from the user's topic to its publish record acknowledged. */
    static final String SPAN = "bridge";

    private static final AttributeKey<String> RULE = AttributeKey.stringKey("tributary.rule");
    private static final AttributeKey<String> KAFKA_TOPIC = AttributeKey.stringKey("messaging.source.name");
    private static final AttributeKey<String> MQTT_TOPIC = AttributeKey.stringKey("mqtt.topic");

    private final BridgeRule rule;
    private final MqttTopicTemplate template;
    private final RecordSender sender;
    private final HopTracing tracing;
    private final Consumer<byte[], byte[]> consumer;
    private boolean subscribed;

    KafkaBridge(BridgeRule rule, KafkaClients kafkaClients, RecordSender sender, HopTracing tracing) {
        super("kafka-bridge-" + rule.id(), true, Backoff.fixed(RETRY_PAUSE), Duration.ofSeconds(5));
        this.rule = rule;
        this.template = MqttTopicTemplate.parse(rule.mqttTopic());
        this.sender = sender;
        this.tracing = tracing;
        Properties config = new Properties();
        config.put(ConsumerConfig.GROUP_ID_CONFIG, rule.consumerGroup());
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, rule.consumerGroup());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // The group's offsets were set to the topic's end when the rule was made; this only covers a lost group.
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        // Records of aborted transactions of the user's producers are not commands anybody meant to send.
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        this.consumer = kafkaClients.consumer(config);
    }

    BridgeRule rule() {
        return rule;
    }

    /** Starts the rule's thread. */
    void start() {
        startLoop(consumer);
    }

    @Override
    protected void pollOnce() {
        if (!subscribed) {
            // On the rule's thread, as every use of its consumer: a failure here ends it like any other.
            consumer.subscribe(List.of(rule.kafkaTopic()));
            subscribed = true;
        }
        ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
        if (records.isEmpty()) {
            return;
        }
        List<Hop> hops = new ArrayList<>();
        try {
            sender.sendAndAwait(publishRecords(records, hops));
        } catch (RuntimeException e) {
            endHops(hops, e);
            if (e instanceof KafkaUnavailableException) {
                log.warn(
                        "Kafka-to-MQTT rule {}: {} record(s) not routed, read again: {}",
                        rule.id(),
                        records.count(),
                        e.getMessage());
                rewind(records);
            }
            throw e;
        }
        endHops(hops, null);
        consumer.commitSync();
    }

    /** Only a batch Kafka did not take is retried here; anything else ends the thread, and the next check restarts it. */
    @Override
    protected boolean retries(RuntimeException failure) {
        return failure instanceof KafkaUnavailableException;
    }

    @Override
    protected void onFailure(RuntimeException failure, Duration retryIn) {
        // pollOnce said which batch is read again.
    }

    @Override
    protected void onFatal(RuntimeException failure) {
        log.error("Kafka-to-MQTT rule {} stopped on this instance; it restarts at the next check", rule.id(), failure);
    }

    @Override
    protected void onLoopEnd() {
        consumer.close(Duration.ofSeconds(5));
    }

    private static void endHops(List<Hop> hops, RuntimeException failure) {
        for (Hop hop : hops) {
            hop.end(failure);
        }
    }

    /** The publish records of a batch; the bridge span of each traced one is added to {@code hops}. */
    private List<ProducerRecord<byte[], byte[]>> publishRecords(
            ConsumerRecords<byte[], byte[]> records, List<Hop> hops) {
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>(records.count());
        long now = System.currentTimeMillis();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            String key = r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8);
            String topic = template.topicFor(key);
            if (topic == null) {
                log.warn(
                        "Kafka-to-MQTT rule {}: record {}-{}@{} skipped: key {} cannot fill '{}'",
                        rule.id(),
                        r.topic(),
                        r.partition(),
                        r.offset(),
                        key == null ? "missing" : "'" + key + "'",
                        rule.mqttTopic());
                continue;
            }
            int qos = rule.qos() != null
                    ? rule.qos()
                    : r.headers().lastHeader(RecordHeaders.QOS) != null ? RecordHeaders.readQos(r.headers()) : 1;
            boolean retain =
                    rule.retain() != null ? rule.retain() : RecordHeaders.readFlag(r.headers(), RecordHeaders.RETAIN);
            ProducerRecord<byte[], byte[]> publish = PublishRecordFormat.toRecord(
                    topic,
                    r.value() == null ? new byte[0] : r.value(),
                    qos,
                    retain,
                    CLIENT_ID_PREFIX + rule.id(),
                    5,
                    NODE_ID,
                    null,
                    now);
            // The backend's trace goes on with the message (delivered to MQTT 5 clients as user properties).
            for (String name : new String[] {RecordHeaders.TRACEPARENT, RecordHeaders.TRACESTATE}) {
                Header h = r.headers().lastHeader(name);
                if (h != null && h.value() != null) {
                    publish.headers().add(name, h.value());
                }
            }
            // The backend's span is the bridge span's parent; the bridge span becomes the publish record's.
            Hop hop = tracing.continueTrace(SPAN, SpanKind.CONSUMER, publish.headers());
            if (hop != Hop.NONE) {
                hops.add(hop.attribute(RULE, Long.toString(rule.id()))
                        .attribute(KAFKA_TOPIC, r.topic())
                        .attribute(MQTT_TOPIC, topic));
            }
            out.add(publish);
        }
        return out;
    }

    /** Back to the first record of the batch on each partition, so the batch is routed again. */
    private void rewind(ConsumerRecords<byte[], byte[]> records) {
        for (TopicPartition partition : records.partitions()) {
            consumer.seek(partition, records.records(partition).get(0).offset());
        }
    }
}
