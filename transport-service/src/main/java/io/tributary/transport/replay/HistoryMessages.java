package io.tributary.transport.replay;

import io.netty.handler.codec.mqtt.MqttProperties;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.topic.TopicFilters;
import io.tributary.transport.connection.OutboundMessage;
import io.tributary.transport.connection.SubscriptionOptions;
import io.tributary.transport.publish.PublishRecords;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** A history's records as the outbound messages a live delivery to the subscriber would make of them. */
final class HistoryMessages {

    private static final int[] NONE = new int[0];

    private HistoryMessages() {}

    /**
     * Outbound messages for the records of a history, as a live delivery would make them: one copy per record, at
     * the highest QoS of the matching subscriptions (at most the published one), RETAIN only where Retain As
     * Published, the remaining message expiry (expired ones left out), no-local honoured, their identifiers.
     */
    static List<OutboundMessage> of(
            List<ConsumerRecord<byte[], byte[]>> records,
            Map<String, SubscriptionOptions> granted,
            String clientId,
            long nowMillis) {
        List<OutboundMessage> out = new ArrayList<>(records.size());
        for (ConsumerRecord<byte[], byte[]> r : records) {
            String topic = new String(r.key(), StandardCharsets.UTF_8);
            String publisher = RecordHeaders.readString(r.headers(), RecordHeaders.CLIENT_ID);
            int qos = -1;
            boolean retainAsPublished = false;
            int[] ids = NONE;
            for (Map.Entry<String, SubscriptionOptions> e : granted.entrySet()) {
                SubscriptionOptions o = e.getValue();
                if (!TopicFilters.matches(e.getKey(), topic) || (o.noLocal() && clientId.equals(publisher))) {
                    continue;
                }
                qos = Math.max(qos, o.qos());
                retainAsPublished |= o.retainAsPublished();
                if (o.subscriptionId() != 0) {
                    ids = Arrays.copyOf(ids, ids.length + 1);
                    ids[ids.length - 1] = o.subscriptionId();
                }
            }
            if (qos < 0) {
                continue;
            }
            MqttProperties properties = PublishRecords.deliveryProperties(r.headers(), nowMillis);
            if (properties == null) {
                continue;
            }
            boolean retain = retainAsPublished && RecordHeaders.readFlag(r.headers(), RecordHeaders.RETAIN);
            out.add(new OutboundMessage(
                    topic,
                    r.value() == null ? new byte[0] : r.value(),
                    Math.min(qos, PublishRecords.qosOf(r.headers())),
                    retain,
                    properties,
                    ids));
        }
        return out;
    }

    /** Its first message says the history was cut ({@link ReplayRequest#TRUNCATED}). */
    static void markFirst(List<OutboundMessage> messages) {
        if (messages.isEmpty()) {
            return;
        }
        OutboundMessage first = messages.get(0);
        MqttProperties marked = new MqttProperties();
        first.properties().listAll().forEach(marked::add);
        marked.add(new MqttProperties.UserProperty(ReplayRequest.TRUNCATED, "true"));
        messages.set(
                0,
                new OutboundMessage(
                        first.topic(), first.payload(), first.qos(), first.retain(), marked, first.subscriptionIds()));
    }
}
