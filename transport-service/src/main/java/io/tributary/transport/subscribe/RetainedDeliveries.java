package io.tributary.transport.subscribe;

import io.netty.handler.codec.mqtt.MqttProperties;
import io.tributary.common.session.SubscribeApi;
import io.tributary.transport.connection.OutboundMessage;
import io.tributary.transport.publish.PublishRecords;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Turns the retained messages session-service returned for one granted subscription into outbound messages: RETAIN
 * flag 1 (MQTT section 3.3.1.3: set when sent because of a new subscription), QoS lowered to the granted one, the
 * stored MQTT 5 properties with the remaining message expiry, and the subscription's identifier. Expired ones are
 * left out.
 */
public final class RetainedDeliveries {

    private static final int[] NONE = new int[0];

    private RetainedDeliveries() {}

    public static List<OutboundMessage> of(
            List<SubscribeApi.RetainedMessage> retained, int grantedQos, int subscriptionId, long nowMillis) {
        if (retained == null || retained.isEmpty()) {
            return List.of();
        }
        int[] ids = subscriptionId == 0 ? NONE : new int[] {subscriptionId};
        List<OutboundMessage> out = new ArrayList<>(retained.size());
        for (SubscribeApi.RetainedMessage m : retained) {
            RecordHeaders headers = new RecordHeaders();
            if (m.headers() != null) {
                for (SubscribeApi.Header h : m.headers()) {
                    headers.add(new RecordHeader(h.name(), h.value()));
                }
            }
            MqttProperties properties = PublishRecords.deliveryProperties(headers, nowMillis);
            if (properties == null) {
                continue;
            }
            byte[] payload = m.payload() == null ? new byte[0] : m.payload();
            out.add(new OutboundMessage(m.topic(), payload, Math.min(m.qos(), grantedQos), true, properties, ids));
        }
        return out;
    }
}
