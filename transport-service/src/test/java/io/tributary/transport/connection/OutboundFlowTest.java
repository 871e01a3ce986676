package io.tributary.transport.connection;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.mqtt.MqttProperties;
import io.tributary.sessionqueue.SessionQueueKeys;
import io.tributary.transport.alias.OutboundTopicAliases;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OutboundFlowTest {

    private static final int NODE_MAX_INFLIGHT = 100;

    private static OutboundMessage message(int payload) {
        return new OutboundMessage("t", new byte[payload], 1, false, MqttProperties.NO_PROPERTIES);
    }

    @Test
    void own_packet_ids_stay_above_the_session_queue_ids_and_are_handed_out_round_robin() {
        OutboundFlow flow = new OutboundFlow(65535, null);
        OutboundMessage a = message(1);
        int first = flow.launch(a);
        assertThat(first).isEqualTo(SessionQueueKeys.QUEUE_PACKET_IDS + 1);
        assertThat(a.packetId()).isEqualTo(first);

        flow.acknowledge(first);
        assertThat(flow.launch(message(1))).as("not the id just freed").isEqualTo(first + 1);
    }

    @Test
    void no_packet_id_is_reused_while_in_flight_and_none_is_given_when_all_are() {
        OutboundFlow flow = new OutboundFlow(65535, null);
        int own = OutboundFlow.LAST_PACKET_ID - OutboundFlow.FIRST_OWN_PACKET_ID + 1;
        Set<Integer> ids = new HashSet<>();
        for (int i = 0; i < own; i++) {
            ids.add(flow.launch(message(1)));
        }
        assertThat(ids)
                .hasSize(own)
                .allMatch(id -> id >= OutboundFlow.FIRST_OWN_PACKET_ID && id <= OutboundFlow.LAST_PACKET_ID);
        long held = flow.bytesHeld();

        OutboundMessage refused = message(1);
        assertThat(flow.launch(refused)).isEqualTo(-1);
        assertThat(flow.inFlightCount()).isEqualTo(own);
        assertThat(flow.bytesHeld()).as("a message without an id is not held").isEqualTo(held);

        int freed = OutboundFlow.FIRST_OWN_PACKET_ID + 1000;
        flow.acknowledge(freed);
        assertThat(flow.launch(message(1))).as("the only free id").isEqualTo(freed);
    }

    @Test
    void bytes_held_follow_the_messages_through_waiting_in_flight_and_acknowledged() {
        OutboundFlow flow = new OutboundFlow(1, null);
        OutboundMessage a = message(100);
        OutboundMessage b = message(300);
        long sa = a.wireSize();
        long sb = b.wireSize();

        int idA = flow.launch(a);
        flow.await(b);
        assertThat(flow.bytesHeld()).isEqualTo(sa + sb);
        assertThat(flow.nextToSend(NODE_MAX_INFLIGHT))
                .as("the window of 1 is full")
                .isNull();

        assertThat(flow.acknowledge(idA)).isSameAs(a);
        assertThat(flow.bytesHeld()).isEqualTo(sb);
        assertThat(flow.acknowledge(idA)).as("a second PUBACK finds nothing").isNull();
        assertThat(flow.bytesHeld()).isEqualTo(sb);

        OutboundMessage next = flow.nextToSend(NODE_MAX_INFLIGHT);
        assertThat(next).isSameAs(b);
        assertThat(flow.bytesHeld()).as("taken out to be sent or dropped").isZero();
        int idB = flow.launch(next);
        assertThat(flow.bytesHeld()).isEqualTo(sb);
        flow.acknowledge(idB);
        assertThat(flow.bytesHeld()).isZero();
        assertThat(flow.undelivered()).isZero();
    }

    @Test
    void a_message_put_in_flight_under_an_id_in_use_replaces_it_without_leaking_its_bytes() {
        OutboundFlow flow = new OutboundFlow(10, null);
        flow.launch(message(100), 7);
        OutboundMessage owed = message(0);
        flow.launch(owed, 7);
        assertThat(flow.inFlightCount()).isEqualTo(1);
        assertThat(flow.bytesHeld()).isEqualTo(owed.wireSize());
        assertThat(flow.awaitingAck(7)).isSameAs(owed);
        assertThat(flow.inFlight(7)).isTrue();
        assertThat(flow.inFlight(8)).isFalse();
    }

    @Test
    void the_window_is_the_client_receive_maximum_capped_by_the_node_and_waiting_keeps_its_order() {
        assertThat(new OutboundFlow(65535, null).window(NODE_MAX_INFLIGHT)).isEqualTo(NODE_MAX_INFLIGHT);
        OutboundFlow flow = new OutboundFlow(2, null);
        assertThat(flow.window(NODE_MAX_INFLIGHT)).isEqualTo(2);
        assertThat(flow.maySendNow(NODE_MAX_INFLIGHT)).isTrue();

        int first = flow.launch(message(1));
        assertThat(flow.freeSlots(NODE_MAX_INFLIGHT)).isEqualTo(1);
        OutboundMessage x = message(1);
        OutboundMessage y = message(2);
        flow.await(x);
        assertThat(flow.maySendNow(NODE_MAX_INFLIGHT))
                .as("nothing overtakes a waiting message")
                .isFalse();
        flow.await(y);
        assertThat(flow.freeSlots(NODE_MAX_INFLIGHT)).isEqualTo(-1);

        assertThat(flow.nextToSend(NODE_MAX_INFLIGHT)).isSameAs(x);
        flow.launch(x);
        assertThat(flow.nextToSend(NODE_MAX_INFLIGHT)).as("window full again").isNull();
        flow.acknowledge(first);
        assertThat(flow.nextToSend(NODE_MAX_INFLIGHT)).isSameAs(y);
        assertThat(flow.waitingCount()).isZero();
    }

    @Test
    void acknowledged_queue_entries_are_gathered_per_turn() {
        OutboundFlow flow = new OutboundFlow(10, null);
        assertThat(flow.queueEntryAcknowledged(5))
                .as("first of the turn: schedule the removal")
                .isTrue();
        assertThat(flow.queueEntryAcknowledged(3)).isFalse();
        assertThat(flow.takeAcknowledgedQueueEntries()).containsExactly(5L, 3L);
        assertThat(flow.takeAcknowledgedQueueEntries()).isEmpty();
        assertThat(flow.queueEntryAcknowledged(9)).isTrue();
        assertThat(flow.takeAcknowledgedQueueEntries()).isEqualTo(List.of(9L));
    }

    @Test
    void aliases_are_assigned_only_at_use() {
        assertThat(new OutboundFlow(10, null).peekAlias("a")).isNull();
        OutboundFlow flow = new OutboundFlow(10, new OutboundTopicAliases(2));
        OutboundTopicAliases.Use before = flow.peekAlias("a");
        assertThat(flow.peekAlias("a")).isEqualTo(before);
        flow.useAlias("a");
        OutboundTopicAliases.Use after = flow.peekAlias("a");
        assertThat(after.alias()).isEqualTo(before.alias());
        assertThat(after.topicOnWire()).as("known now: the alias alone").isEmpty();
    }
}
