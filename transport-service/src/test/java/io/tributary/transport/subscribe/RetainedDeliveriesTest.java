package io.tributary.transport.subscribe;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.mqtt.MqttProperties;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.session.SubscribeApi;
import io.tributary.transport.connection.OutboundMessage;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetainedDeliveriesTest {

    private static final long NOW = 1_000_000_000L;

    private static SubscribeApi.RetainedMessage message(String topic, int qos, SubscribeApi.Header... headers) {
        return new SubscribeApi.RetainedMessage(topic, topic.getBytes(StandardCharsets.UTF_8), qos, List.of(headers));
    }

    @Test
    void retained_flag_set_qos_capped_and_subscription_identifier_added() {
        List<OutboundMessage> out = RetainedDeliveries.of(List.of(message("a", 2), message("b", 0)), 1, 7, NOW);
        assertThat(out).extracting(OutboundMessage::topic).containsExactly("a", "b");
        assertThat(out).extracting(OutboundMessage::qos).containsExactly(1, 0);
        assertThat(out).allMatch(OutboundMessage::retain);
        assertThat(out.get(0).subscriptionIds()).containsExactly(7);
        assertThat(RetainedDeliveries.of(List.of(message("a", 2)), 2, 0, NOW)
                        .get(0)
                        .subscriptionIds())
                .isEmpty();
    }

    @Test
    void mqtt5_properties_come_back_with_the_remaining_expiry_and_expired_messages_are_dropped() {
        SubscribeApi.Header receivedTenSecondsAgo =
                new SubscribeApi.Header(RecordHeaders.RECEIVED_AT, RecordHeaders.int64(NOW - 10_000));
        SubscribeApi.RetainedMessage alive = message(
                "alive",
                1,
                receivedTenSecondsAgo,
                new SubscribeApi.Header(RecordHeaders.MESSAGE_EXPIRY, RecordHeaders.int32(60)),
                new SubscribeApi.Header(RecordHeaders.CONTENT_TYPE, RecordHeaders.utf8("text/plain")),
                new SubscribeApi.Header(RecordHeaders.USER_PROPERTY_PREFIX + "k", RecordHeaders.utf8("v")));
        SubscribeApi.RetainedMessage expired = message(
                "expired",
                1,
                receivedTenSecondsAgo,
                new SubscribeApi.Header(RecordHeaders.MESSAGE_EXPIRY, RecordHeaders.int32(5)));
        List<OutboundMessage> out = RetainedDeliveries.of(List.of(alive, expired), 1, 0, NOW);
        assertThat(out).extracting(OutboundMessage::topic).containsExactly("alive");
        MqttProperties p = out.get(0).properties();
        assertThat(p.getProperty(MqttProperties.PUBLICATION_EXPIRY_INTERVAL).value())
                .isEqualTo(50);
        assertThat(p.getProperty(MqttProperties.CONTENT_TYPE).value()).isEqualTo("text/plain");
        assertThat(p.getProperties(MqttProperties.USER_PROPERTY)).hasSize(1);
    }

    @Test
    void nothing_to_send_for_an_old_server_or_an_empty_list() {
        assertThat(RetainedDeliveries.of(null, 1, 0, NOW)).isEmpty();
        assertThat(RetainedDeliveries.of(List.of(), 1, 0, NOW)).isEmpty();
    }
}
