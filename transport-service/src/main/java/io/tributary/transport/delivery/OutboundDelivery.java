package io.tributary.transport.delivery;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.handler.codec.mqtt.MqttReasonCodes.Disconnect;
import io.tributary.sessionqueue.QueueReader;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.connection.OutboundFlow;
import io.tributary.transport.connection.OutboundMessage;
import io.tributary.transport.limits.tenant.TenantDeliveryQuotas;
import io.tributary.transport.limits.tenant.TenantPublishQuotas;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.sessionqueue.QueueDelivery;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Writes messages to one subscriber and runs the outbound QoS 1/2 handshakes: packet ids, the in-flight window
 * (the client's Receive Maximum, capped by ours), a bounded queue behind it; MQTT 5 topic aliases and subscription
 * identifiers are added per subscriber. Every method runs on the connection's event loop.
 *
 * <p>Memory per subscriber is bounded in bytes as well as in messages: a PUBLISH is written only while the channel
 * is writable (below Netty's high water mark), otherwise QoS 0 is dropped and QoS 1/2 waits in the queue; the
 * QoS 1/2 messages held for a subscriber (in flight + queued) never exceed {@code maxQueued} queued messages nor
 * {@code maxBytes} bytes. Beyond them the {@link SlowConsumerPolicy} applies. A subscriber that does not read
 * therefore costs at most the high water mark plus {@code maxBytes}, however fast others publish; all of them
 * together hold no more than the node's budget ({@link NodeOutboundBudget}) waiting.
 *
 * <p>Messages of a persistent session's queue come in through {@link #sendQueued}, with the packet id their
 * sequence gives them, only as far as {@link #freeSlots} allows; their acknowledgements remove them from the queue
 * in Redis ({@link QueuedMessageSettlement}). The packets themselves are written by {@link PublishWriter}; the
 * acknowledgements are {@link OutboundHandshake}'s.
 *
 * <p>A tenant's delivery quota ({@link TenantDeliveryQuotas}) is spent where a PUBLISH is written: QoS 0 over it is
 * dropped; QoS 1/2 waits in the queue above (bounded as always, the slow-consumer policy beyond) until the quota's
 * tick releases the connection; a session queue's reader gets no free slots while the tenant is over.
 */
public final class OutboundDelivery implements QueueDelivery {

    /**
     * @param maxInflight outbound QoS 1/2 messages awaiting acknowledgement (also capped by Receive Maximum)
     * @param maxQueued   QoS 1/2 messages waiting behind the window or for the socket to drain
     * @param maxBytes    bytes of QoS 1/2 messages held per subscriber, in flight and queued
     */
    public record Limits(int maxInflight, int maxQueued, long maxBytes, SlowConsumerPolicy policy) {}

    /** {@code tributary.deliveries.dropped} reason of a message refused because the node's budget was reached. */
    public static final String NODE_BUDGET_REASON = "node_outbound_bytes";

    private final TransportMetrics metrics;
    private final Disconnector disconnector;
    private final Limits limits;
    /** What acknowledgements do to a persistent session's queue (nothing when the node serves none). */
    private final QueuedMessageSettlement queue;

    private final PublishWriter writer;
    /** The acknowledgements of what this class sent. */
    private final OutboundHandshake handshake;

    private Consumer<ClientConnection> slotFreed = connection -> {};
    private Consumer<ClientConnection> replayRoom = connection -> {};
    private LiveGate liveGate = (connection, message, partition, offset) -> false;
    private TenantDeliveryQuotas deliveryQuotas = TenantDeliveryQuotas.NONE;
    private NodeOutboundBudget nodeBudget = NodeOutboundBudget.UNLIMITED;

    /**
     * Installs the gate for connections that replay, and what is told when such a connection may take more (an
     * acknowledgement freed a slot, the socket drained).
     */
    public void onReplay(LiveGate gate, Consumer<ClientConnection> room) {
        this.liveGate = gate;
        this.replayRoom = room;
    }

    public OutboundDelivery(TransportMetrics metrics, Disconnector disconnector, Limits limits) {
        this(metrics, disconnector, limits, null);
    }

    public OutboundDelivery(
            TransportMetrics metrics, Disconnector disconnector, Limits limits, QueueReader queueStore) {
        this.metrics = metrics;
        this.disconnector = disconnector;
        this.limits = limits;
        this.queue = new QueuedMessageSettlement(metrics, queueStore);
        this.writer = new PublishWriter(metrics);
        this.handshake = new OutboundHandshake(queue, writer, this::drain);
    }

    /** The tenants' delivery quotas; a connection they held is drained again when they release it. */
    public void deliveryQuotas(TenantDeliveryQuotas quotas) {
        this.deliveryQuotas = quotas;
        quotas.onRelease(connection -> {
            if (connection.channel().isActive()) {
                drain(connection);
            }
        });
    }

    /** The node's budget of bytes held for all its subscribers together. */
    public void nodeBudget(NodeOutboundBudget budget) {
        this.nodeBudget = budget;
    }

    /** Told whenever a connection of a persistent session may take more from its queue. */
    @Override
    public void onSlotFreed(Consumer<ClientConnection> listener) {
        this.slotFreed = listener;
    }

    /**
     * How many messages the session queue may hand over now: free in-flight slots, after the messages already waiting
     * in memory; none while the socket is not writable, the bytes held reach the limit (the connection's or the
     * node's) or the tenant is over its delivery quota (the messages stay in the queue; the quota's tick releases the
     * connection, an acknowledgement or the socket's draining asks again).
     */
    @Override
    public int freeSlots(ClientConnection connection) {
        if (!connection.channel().isWritable()
                || connection.outbound().bytesHeld() >= limits.maxBytes()
                || nodeBudget.exceeded()) {
            return 0;
        }
        int free = connection.outbound().freeSlots(limits.maxInflight());
        return free > 0 && !deliveryQuotas.hasRoom(connection) ? 0 : free;
    }

    /**
     * Sends a message read from the connection's session queue with the packet id its sequence gives it. The caller
     * checked that the id and a slot are free.
     */
    @Override
    public void sendQueued(ClientConnection connection, OutboundMessage message, int packetId) {
        if (!connection.channel().isActive()) {
            return;
        }
        Wire wire = Wire.of(connection, message);
        if (wire == null) {
            metrics.dropped("client_packet_size");
            queue.forget(connection, message);
            return;
        }
        // Read because freeSlots saw room: spent even if that room is gone, the debt is paid in the next window.
        deliveryQuotas.spend(connection, message.payload().length);
        connection.outbound().launch(message, packetId);
        writer.write(connection, message, wire, true);
    }

    /** PUBREL owed for a QoS 2 message the client acknowledged with PUBREC over an earlier connection. */
    @Override
    public void resendRelease(ClientConnection connection, int packetId) {
        OutboundMessage owed = new OutboundMessage("", new byte[0], 2, false, null);
        owed.queueSeq(-1);
        owed.markReleased();
        connection.outbound().launch(owed, packetId);
        writer.writeRelease(connection, packetId, (byte) 0);
    }

    @Override
    public void deliver(ClientConnection connection, OutboundMessage message) {
        deliver(connection, message, null, true);
    }

    /**
     * The deliveries of one poll of the downlink topic for this event loop, in record order: written without a flush
     * each, then every connection written to is flushed once and the PUBLISH packets sent counted once per QoS.
     */
    void deliverAll(List<DeliveryBatch.Delivery> deliveries, long polledAtNanos) {
        long[] sent = new long[3];
        Set<Channel> written = new LinkedHashSet<>();
        for (DeliveryBatch.Delivery d : deliveries) {
            if (d.connection().replays() != null
                    && liveGate.intercept(d.connection(), d.message(), d.partition(), d.offset())) {
                release(d.frame());
                continue;
            }
            if (deliver(d.connection(), d.message(), d.frame(), false)) {
                sent[d.message().qos()]++;
                written.add(d.connection().channel());
            }
        }
        for (Channel channel : written) {
            channel.flush();
        }
        for (int qos = 0; qos < sent.length; qos++) {
            metrics.publishesOut(qos, sent[qos]);
        }
        metrics.downlinkToSocket(System.nanoTime() - polledAtNanos);
    }

    /**
     * Delivers one message; {@code frame}, when not null, is the connection's reference to the message's shared QoS 0
     * encoding, written instead of encoding it again, and released here if the message is not written.
     *
     * @return true when a PUBLISH was written now (not queued, not dropped)
     */
    private boolean deliver(ClientConnection connection, OutboundMessage message, ByteBuf frame, boolean flush) {
        Channel channel = connection.channel();
        if (!channel.isActive()) {
            metrics.dropped("connection_closed");
            return release(frame);
        }
        Wire wire = Wire.of(connection, message);
        if (wire == null) {
            // MQTT 5 section 3.1.2.11.4: a message larger than the client accepts is discarded for that client.
            // Checked again when a waiting message is sent: its topic may have an alias by then.
            metrics.dropped("client_packet_size");
            return release(frame);
        }
        if (message.qos() == 0) {
            return deliverQos0(connection, message, wire, frame, flush);
        }
        release(frame);
        return deliverAcknowledged(connection, message, flush);
    }

    /** QoS 0 is never held: written now (the shared encoding when the topic goes out as is) or dropped, counted. */
    private boolean deliverQos0(
            ClientConnection connection, OutboundMessage message, Wire wire, ByteBuf frame, boolean flush) {
        Channel channel = connection.channel();
        if (!channel.isWritable()) {
            metrics.dropped("slow_consumer_qos0");
            return release(frame);
        }
        if (!deliveryQuotas.admitQos0(connection, message.payload().length)) {
            metrics.dropped(TenantPublishQuotas.REASON);
            return release(frame);
        }
        if (frame != null && wire.alias() == 0) {
            channel.write(frame);
            connection.meter().out(1, message.payload().length);
            if (flush) {
                channel.flush();
                metrics.publishOut(0);
            }
            return true;
        }
        release(frame);
        writer.write(connection, message, wire, flush);
        return true;
    }

    /**
     * QoS 1/2: sent now when the in-flight window, the socket and the tenant's quota allow, else it waits in the
     * bounded queue; beyond the bounds the slow-consumer policy applies.
     */
    private boolean deliverAcknowledged(ClientConnection connection, OutboundMessage message, boolean flush) {
        Channel channel = connection.channel();
        OutboundFlow flow = connection.outbound();
        long held = flow.bytesHeld();
        // One message is always let through when nothing is held, so a message above maxBytes is not starved.
        if (held > 0 && held + message.wireSize() > limits.maxBytes()) {
            overLimit(connection, "slow_consumer_bytes");
            return false;
        }
        boolean sendNow = flow.maySendNow(limits.maxInflight()) && channel.isWritable();
        if (!sendNow && flow.waitingCount() >= limits.maxQueued()) {
            overLimit(connection, "queue_full");
            return false;
        }
        // Held only to wait: not once the node's subscribers hold its budget together.
        if (!sendNow && nodeBudget.exceeded()) {
            overLimit(connection, NODE_BUDGET_REASON);
            return false;
        }
        if (sendNow) {
            if (deliveryQuotas.tryDeliver(connection, message.payload().length)) {
                return send(connection, message, flush);
            }
            delayed(connection, message);
        }
        flow.await(message);
        return false;
    }

    private static boolean release(ByteBuf frame) {
        if (frame != null) {
            frame.release();
        }
        return false;
    }

    /** The socket drained below the low water mark: send what waited for it. */
    public void onWritable(ClientConnection connection) {
        drain(connection);
    }

    private void overLimit(ClientConnection connection, String reason) {
        metrics.dropped(reason);
        if (limits.policy() == SlowConsumerPolicy.DISCONNECT) {
            disconnector.disconnect(
                    connection.channel(),
                    Disconnect.QUOTA_EXCEEDED,
                    null,
                    NODE_BUDGET_REASON.equals(reason)
                            ? "slow consumer: the node's subscribers hold its outbound budget of "
                                    + nodeBudget.maxBytes() + " bytes and this one's messages wait"
                            : "slow consumer: more than " + limits.maxQueued() + " messages or " + limits.maxBytes()
                                    + " bytes waiting for it");
        }
    }

    /** PUBACK for an outbound QoS 1 message. */
    public void onPubAck(ClientConnection connection, int packetId) {
        handshake.onPubAck(connection, packetId);
    }

    /** PUBREC for an outbound QoS 2 message: answer PUBREL (also for an unknown id, with 0x92 in MQTT 5). */
    public void onPubRec(ClientConnection connection, int packetId, int reasonCode) {
        handshake.onPubRec(connection, packetId, reasonCode);
    }

    /** PUBCOMP for an outbound QoS 2 message. */
    public void onPubComp(ClientConnection connection, int packetId) {
        handshake.onPubComp(connection, packetId);
    }

    /** An exchange ended, or the socket or the quota made room: send what waited, and tell the queue readers. */
    private void drain(ClientConnection connection) {
        OutboundMessage next;
        while (connection.channel().isWritable()
                && (next = connection.outbound().peekNextToSend(limits.maxInflight())) != null) {
            if (!deliveryQuotas.tryDeliver(connection, next.payload().length)) {
                delayed(connection, next); // stays first in line; the quota's tick drains again
                break;
            }
            connection.outbound().nextToSend(limits.maxInflight());
            send(connection, next, true);
        }
        if (connection.queueBacked() && freeSlots(connection) > 0) {
            slotFreed.accept(connection);
        }
        if (connection.replays() != null) {
            replayRoom.accept(connection);
        }
    }

    /** Counts a QoS 1/2 message held back for its tenant's delivery quota, once however long it waits. */
    private void delayed(ClientConnection connection, OutboundMessage message) {
        if (message.markQuotaDelayed()) {
            deliveryQuotas.delayed(connection);
        }
    }

    private boolean send(ClientConnection connection, OutboundMessage message, boolean flush) {
        Wire wire = Wire.of(connection, message);
        if (wire == null) {
            metrics.dropped("client_packet_size");
            return false;
        }
        if (connection.outbound().launch(message) < 0) {
            metrics.dropped("no_packet_id");
            return false;
        }
        writer.write(connection, message, wire, flush);
        return true;
    }
}
