package io.tributary.transport.connection;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttPubReplyMessageVariableHeader;
import io.tributary.transport.alias.InboundTopicAliases;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class InboundFlowTest {

    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final InboundFlow flow = new InboundFlow(channel, true, new InboundTopicAliases(10));

    /** The acknowledgements written so far, as "PUBACK 1/0" (type, packet id, reason code). */
    private List<String> written() {
        List<String> acks = new ArrayList<>();
        MqttMessage m;
        while ((m = channel.readOutbound()) != null) {
            MqttPubReplyMessageVariableHeader h = (MqttPubReplyMessageVariableHeader) m.variableHeader();
            acks.add(m.fixedHeader().messageType() + " " + h.messageId() + "/" + h.reasonCode());
        }
        return acks;
    }

    @Test
    void acknowledgements_go_out_in_arrival_order_whatever_order_kafka_answers_in() {
        InboundAcks.Slot first = flow.expectAck(1, 1);
        InboundAcks.Slot second = flow.expectAck(2, 2);
        InboundAcks.Slot third = flow.expectAck(3, 1);

        flow.acknowledge(third);
        assertThat(written()).as("3 waits for 1 and 2").isEmpty();
        flow.acknowledge(first);
        assertThat(written()).containsExactly("PUBACK 1/0");
        flow.acknowledge(second);
        assertThat(written()).containsExactly("PUBREC 2/0", "PUBACK 3/0");
    }

    @Test
    void a_refusal_on_arrival_does_not_overtake_a_publish_still_waiting_for_kafka() {
        InboundAcks.Slot stored = flow.expectAck(1, 1);
        flow.acknowledgeInOrder(2, 1, (byte) 0x87, MqttProperties.NO_PROPERTIES);
        assertThat(written()).isEmpty();

        flow.acknowledge(stored);
        assertThat(written()).containsExactly("PUBACK 1/0", "PUBACK 2/-121");
    }

    @Test
    void a_qos2_id_stays_open_until_released_and_can_be_used_again_after() {
        assertThat(flow.openQos2(5)).isTrue();
        assertThat(flow.openQos2(5)).as("the same id again is a re-send").isFalse();
        assertThat(flow.awaitingRelease(5)).isTrue();
        assertThat(flow.awaitingRelease(6)).isFalse();

        assertThat(flow.releaseQos2(5)).isTrue();
        assertThat(flow.releaseQos2(5)).as("a second PUBREL finds nothing").isFalse();
        assertThat(flow.awaitingRelease(5)).isFalse();
        assertThat(flow.openQos2(5))
                .as("after PUBCOMP the client may reuse the id")
                .isTrue();
    }

    @Test
    void storing_is_true_only_while_the_publish_waits_for_kafka() {
        flow.openQos2(7);
        InboundAcks.Slot slot = flow.expectAck(7, 2);
        assertThat(flow.storing(7)).isTrue();

        flow.acknowledge(slot);
        assertThat(flow.storing(7)).isFalse();
        assertThat(flow.awaitingRelease(7)).as("PUBREC sent, PUBREL not yet").isTrue();
    }

    @Test
    void ids_restored_at_connect_are_recognised_as_resends_and_count_against_receive_maximum() {
        flow.restoreQos2(List.of(3, 4));
        assertThat(flow.openQos2(3)).isFalse();
        assertThat(flow.openExchanges()).isEqualTo(2);
        assertThat(flow.exceedsReceiveMaximum(2, 9, 2)).isTrue();
    }

    @Test
    void qos2_exchanges_count_until_pubrel_although_pubrec_was_sent() {
        flow.openQos2(1);
        flow.openQos2(2);

        assertThat(flow.openExchanges()).isEqualTo(2);
        assertThat(flow.exceedsReceiveMaximum(2, 3, 2)).isTrue();
        assertThat(flow.exceedsReceiveMaximum(2, 3, 3)).isFalse();
        flow.releaseQos2(1);
        assertThat(flow.exceedsReceiveMaximum(2, 3, 2)).isFalse();
    }

    @Test
    void qos1_counts_until_its_puback_is_written() {
        InboundAcks.Slot slot = flow.expectAck(1, 1);
        assertThat(flow.exceedsReceiveMaximum(1, 2, 1)).isTrue();

        flow.acknowledge(slot);

        assertThat(flow.openExchanges()).isZero();
        assertThat(flow.exceedsReceiveMaximum(1, 2, 1)).isFalse();
    }

    @Test
    void qos1_behind_a_slow_publish_counts_until_its_puback_is_actually_written() {
        InboundAcks.Slot slow = flow.expectAck(1, 1);
        InboundAcks.Slot fast = flow.expectAck(2, 1);
        flow.acknowledge(fast);
        assertThat(flow.openExchanges()).as("its PUBACK waits behind 1").isEqualTo(2);
        flow.acknowledge(slow);
        assertThat(flow.openExchanges()).isZero();
    }

    @Test
    void qos2_waiting_for_kafka_is_counted_once() {
        flow.openQos2(7);
        flow.expectAck(7, 2);

        assertThat(flow.openExchanges()).isEqualTo(1);
    }

    @Test
    void a_resent_qos2_publish_and_qos0_open_nothing() {
        flow.openQos2(7);

        assertThat(flow.exceedsReceiveMaximum(2, 7, 1)).isFalse();
        assertThat(flow.exceedsReceiveMaximum(0, 0, 1)).isFalse();
        assertThat(flow.exceedsReceiveMaximum(2, 8, 1)).isTrue();
    }

    @Test
    void an_alias_resolves_only_after_it_was_defined() {
        assertThat(flow.hasAliases()).isTrue();
        assertThat(flow.resolveTopic("", 2).failed()).isTrue();
        assertThat(flow.resolveTopic("a/b", 2).topic()).isEqualTo("a/b");
        assertThat(flow.resolveTopic("", 2).failed())
                .as("resolving does not define")
                .isTrue();

        flow.defineAlias(2, "a/b");
        assertThat(flow.resolveTopic("", 2).topic()).isEqualTo("a/b");
    }

    @Test
    void mqtt311_has_no_aliases_and_plain_acknowledgements() {
        EmbeddedChannel v3 = new EmbeddedChannel();
        InboundFlow flow311 = new InboundFlow(v3, false, null);
        assertThat(flow311.hasAliases()).isFalse();
        flow311.acknowledgeInOrder(4, 1, (byte) 0, MqttProperties.NO_PROPERTIES);
        MqttMessage ack = v3.readOutbound();
        assertThat(ack.fixedHeader().messageType()).isEqualTo(MqttMessageType.PUBACK);
        assertThat(ack.variableHeader()).isNotInstanceOf(MqttPubReplyMessageVariableHeader.class);
    }
}
