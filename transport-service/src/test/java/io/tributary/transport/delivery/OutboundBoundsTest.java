package io.tributary.transport.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttPublishMessage;
import io.netty.handler.codec.mqtt.MqttReasonCodeAndPropertiesVariableHeader;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.tributary.transport.connection.ClientCapabilities;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.connection.OutboundMessage;
import io.tributary.transport.metrics.TransportMetrics;
import org.junit.jupiter.api.Test;

/**
 * What a subscriber that does not read can cost: nothing is written past the socket's high water mark (QoS 0 is
 * dropped, QoS 1/2 waits), reading from it stops meanwhile, and the QoS 1/2 messages held for it are bounded in
 * bytes; beyond, the policy drops or disconnects. A socket that does not drain is simulated by an unflushed write
 * above the channel's high water mark.
 */
class OutboundBoundsTest {

    private static final int PAYLOAD = 100;

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final TransportMetrics metrics = new TransportMetrics(meters);

    private OutboundDelivery delivery(long maxBytes, SlowConsumerPolicy policy) {
        return new OutboundDelivery(
                metrics, new Disconnector(metrics), new OutboundDelivery.Limits(100, 100, maxBytes, policy));
    }

    private static EmbeddedChannel channel(OutboundDelivery delivery, TransportMetrics metrics) {
        EmbeddedChannel channel = new EmbeddedChannel(new OutboundAckHandler(delivery, metrics));
        channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(8, 16));
        channel.attr(ClientConnection.KEY)
                .set(new ClientConnection(
                        channel,
                        "slow",
                        1,
                        MqttVersion.MQTT_5,
                        true,
                        60,
                        0,
                        new ClientCapabilities(65535, 268_435_460L, 0, true),
                        0,
                        null));
        return channel;
    }

    private static OutboundMessage message(int qos) {
        return new OutboundMessage("t", new byte[PAYLOAD], qos, false, new MqttProperties());
    }

    private double dropped(String reason) {
        var counter = meters.find("tributary.deliveries.dropped")
                .tag("reason", reason)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    /** Leaves 64 unflushed bytes in the channel: above the high water mark of 16, as if the client did not read. */
    private static ByteBuf clog(EmbeddedChannel channel) {
        ByteBuf pending = Unpooled.wrappedBuffer(new byte[64]);
        channel.write(pending.retain());
        channel.runPendingTasks();
        return pending;
    }

    @Test
    void nothing_is_written_while_not_writable_and_queued_qos1_goes_out_when_the_socket_drains() {
        OutboundDelivery delivery = delivery(1 << 20, SlowConsumerPolicy.DROP);
        EmbeddedChannel channel = channel(delivery, metrics);
        ClientConnection c = ClientConnection.of(channel);
        ByteBuf pending = clog(channel);
        assertThat(channel.isWritable()).isFalse();
        assertThat(channel.config().isAutoRead())
                .as("no reading from a client we cannot write to")
                .isFalse();

        delivery.deliver(c, message(0));
        delivery.deliver(c, message(1));
        delivery.deliver(c, message(1));
        assertThat(dropped("slow_consumer_qos0")).isEqualTo(1.0);
        assertThat(c.outbound().inFlightCount()).isZero();
        assertThat(c.outbound().waitingCount()).isEqualTo(2);
        assertThat(c.outbound().bytesHeld()).isEqualTo(2 * message(1).wireSize());

        channel.flush();
        channel.runPendingTasks();
        assertThat(channel.config().isAutoRead()).isTrue();
        assertThat(channel.<ByteBuf>readOutbound()).isSameAs(pending);
        pending.release(2);
        MqttPublishMessage first = channel.readOutbound();
        MqttPublishMessage second = channel.readOutbound();
        assertThat(first).isNotNull();
        assertThat(second).isNotNull();
        assertThat(c.outbound().waitingCount()).isZero();
        assertThat(c.outbound().inFlightCount()).isEqualTo(2);
        first.release();
        second.release();
    }

    @Test
    void qos1_beyond_the_byte_limit_is_dropped_and_counted_and_acks_free_room() {
        long size = message(1).wireSize();
        OutboundDelivery delivery = delivery(2 * size + size / 2, SlowConsumerPolicy.DROP);
        EmbeddedChannel channel = channel(delivery, metrics);
        ClientConnection c = ClientConnection.of(channel);
        delivery.deliver(c, message(1));
        delivery.deliver(c, message(1));
        delivery.deliver(c, message(1));
        assertThat(dropped("slow_consumer_bytes")).isEqualTo(1.0);
        assertThat(c.outbound().bytesHeld()).isEqualTo(2 * size);

        MqttPublishMessage first = channel.readOutbound();
        delivery.onPubAck(c, first.variableHeader().packetId());
        assertThat(c.outbound().bytesHeld()).isEqualTo(size);
        delivery.deliver(c, message(1));
        assertThat(dropped("slow_consumer_bytes")).isEqualTo(1.0);
        assertThat(c.outbound().inFlightCount()).isEqualTo(2);
        assertThat(channel.isActive()).isTrue();
        first.release();
        MqttPublishMessage m;
        while ((m = channel.readOutbound()) != null) {
            m.release();
        }
    }

    @Test
    void one_message_above_the_byte_limit_still_goes_when_nothing_is_held() {
        OutboundDelivery delivery = delivery(10, SlowConsumerPolicy.DROP);
        EmbeddedChannel channel = channel(delivery, metrics);
        delivery.deliver(ClientConnection.of(channel), message(1));
        MqttPublishMessage m = channel.readOutbound();
        assertThat(m).isNotNull();
        m.release();
    }

    @Test
    void disconnect_policy_closes_the_slow_subscriber_with_quota_exceeded() {
        long size = message(1).wireSize();
        OutboundDelivery delivery = delivery(size, SlowConsumerPolicy.DISCONNECT);
        EmbeddedChannel channel = channel(delivery, metrics);
        ClientConnection c = ClientConnection.of(channel);
        delivery.deliver(c, message(1));
        MqttPublishMessage first = channel.readOutbound();
        first.release();
        delivery.deliver(c, message(1));
        MqttMessage disconnect = channel.readOutbound();
        assertThat(disconnect.fixedHeader().messageType()).isEqualTo(MqttMessageType.DISCONNECT);
        assertThat(((MqttReasonCodeAndPropertiesVariableHeader) disconnect.variableHeader()).reasonCode())
                .isEqualTo((byte) 0x97);
        assertThat(channel.isActive()).isFalse();
        assertThat(dropped("slow_consumer_bytes")).isEqualTo(1.0);
    }

    @Test
    void a_subscriber_that_is_not_writable_is_closed_without_waiting_to_flush_a_disconnect() {
        OutboundDelivery delivery = delivery(message(1).wireSize(), SlowConsumerPolicy.DISCONNECT);
        EmbeddedChannel channel = channel(delivery, metrics);
        ClientConnection c = ClientConnection.of(channel);
        ByteBuf pending = clog(channel);
        delivery.deliver(c, message(1)); // held: waits for the socket
        delivery.deliver(c, message(1)); // over the byte limit
        assertThat(channel.isActive()).as("closed at once").isFalse();
        assertThat(pending.refCnt()).isEqualTo(1);
        pending.release();
    }

    /** Both subscribers' held bytes, as the node sums them; the clock is the test's, so the sum is taken each call. */
    private static NodeOutboundBudget budget(long maxBytes, ClientConnection... connections) {
        long[] now = {0};
        return new NodeOutboundBudget(
                maxBytes,
                () -> java.util.Arrays.stream(connections)
                        .mapToLong(c -> c.outbound().bytesHeld())
                        .sum(),
                () -> now[0] += NodeOutboundBudget.REFRESH_MILLIS * 1_000_000);
    }

    @Test
    void stalled_subscribers_each_under_their_own_bound_hold_no_more_than_the_nodes_budget_together() {
        long size = message(1).wireSize();
        // Each may hold 10 messages; the node only 3 for all of them.
        OutboundDelivery delivery = delivery(10 * size, SlowConsumerPolicy.DROP);
        EmbeddedChannel slowChannel = channel(delivery, metrics);
        EmbeddedChannel otherSlowChannel = channel(delivery, metrics);
        EmbeddedChannel readerChannel = channel(delivery, metrics);
        ClientConnection slow = ClientConnection.of(slowChannel);
        ClientConnection otherSlow = ClientConnection.of(otherSlowChannel);
        ClientConnection reader = ClientConnection.of(readerChannel);
        delivery.nodeBudget(budget(3 * size, slow, otherSlow, reader));
        ByteBuf pending = clog(slowChannel);
        ByteBuf otherPending = clog(otherSlowChannel);

        delivery.deliver(slow, message(1));
        delivery.deliver(slow, message(1));
        delivery.deliver(otherSlow, message(1));
        assertThat(dropped(OutboundDelivery.NODE_BUDGET_REASON)).isZero();
        delivery.deliver(otherSlow, message(1)); // the node holds 3 messages: this one would wait
        delivery.deliver(slow, message(1));
        assertThat(dropped(OutboundDelivery.NODE_BUDGET_REASON)).isEqualTo(2.0);
        assertThat(slow.outbound().bytesHeld() + otherSlow.outbound().bytesHeld())
                .isEqualTo(3 * size);
        assertThat(delivery.freeSlots(reader))
                .as("no session queue hands over more while the node is at its budget")
                .isZero();

        // A subscriber that reads still gets its message at once: it does not have to wait.
        delivery.deliver(reader, message(1));
        MqttPublishMessage delivered = readerChannel.readOutbound();
        assertThat(delivered).isNotNull();
        delivered.release();
        assertThat(slowChannel.isActive()).isTrue();

        // The first slow subscriber drains: the node is under its budget again.
        slowChannel.flush();
        slowChannel.runPendingTasks();
        assertThat(slowChannel.<ByteBuf>readOutbound()).isSameAs(pending);
        pending.release(2);
        MqttPublishMessage m;
        while ((m = slowChannel.readOutbound()) != null) {
            delivery.onPubAck(slow, m.variableHeader().packetId());
            m.release();
        }
        delivery.onPubAck(reader, delivered.variableHeader().packetId());
        assertThat(delivery.freeSlots(reader)).isPositive();
        delivery.deliver(otherSlow, message(1));
        assertThat(dropped(OutboundDelivery.NODE_BUDGET_REASON)).isEqualTo(2.0);
        assertThat(otherSlow.outbound().waitingCount()).isEqualTo(2);
        otherSlowChannel.close();
        otherPending.release();
    }

    @Test
    void with_the_disconnect_policy_the_node_budget_closes_the_subscriber_whose_message_would_wait() {
        long size = message(1).wireSize();
        OutboundDelivery delivery = delivery(10 * size, SlowConsumerPolicy.DISCONNECT);
        EmbeddedChannel first = channel(delivery, metrics);
        EmbeddedChannel second = channel(delivery, metrics);
        ClientConnection a = ClientConnection.of(first);
        ClientConnection b = ClientConnection.of(second);
        delivery.nodeBudget(budget(size, a, b));
        ByteBuf pendingA = clog(first);
        ByteBuf pendingB = clog(second);
        delivery.deliver(a, message(1)); // waits: the node holds 1 message, its budget
        delivery.deliver(b, message(1));
        assertThat(second.isActive())
                .as("closed: its message would have waited")
                .isFalse();
        assertThat(first.isActive()).isTrue();
        assertThat(dropped(OutboundDelivery.NODE_BUDGET_REASON)).isEqualTo(1.0);
        first.close();
        pendingA.release();
        pendingB.release();
    }
}
