package io.tributary.transport.delivery;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.handler.codec.mqtt.MqttFixedHeader;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttPublishMessage;
import io.netty.handler.codec.mqtt.MqttPublishVariableHeader;
import io.netty.handler.codec.mqtt.MqttQoS;
import io.netty.handler.codec.mqtt.MqttReasonCodes;
import io.netty.handler.codec.mqtt.MqttReasonCodes.Disconnect;
import io.tributary.sessionqueue.QueueReader;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.connection.InboundAcks;
import io.tributary.transport.connection.OutboundFlow;
import io.tributary.transport.connection.OutboundMessage;
import io.tributary.transport.connection.ProblemInformation;
import io.tributary.transport.limits.tenant.TenantDeliveryQuotas;
import io.tributary.transport.limits.tenant.TenantPublishQuotas;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.sessionqueue.QueueDelivery;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes messages to one subscriber and runs the outbound QoS 1/2 handshakes: packet ids, the in-flight window
 * (the client's Receive Maximum, capped by ours), a bounded queue behind it; MQTT 5 topic aliases and subscription
 * identifiers are added per subscriber. Every method runs on the connection's event loop.
 *
 * <p>Memory per subscriber is bounded in bytes as well as in messages: a PUBLISH is written only while the channel
 * is writable (below Netty's high water mark), otherwise QoS 0 is dropped and QoS 1/2 waits in the queue; the
 * QoS 1/2 messages held for a subscriber (in flight + queued) never exceed {@code maxQueued} queued messages nor
 * {@code maxBytes} bytes. Beyond them the {@link SlowConsumerPolicy} applies. A subscriber that does not read
 * therefore costs at most the high water mark plus {@code maxBytes}, however fast others publish.
 *
 * <p>Messages of a persistent session's queue come in through {@link #sendQueued}, with the packet id their
 * sequence gives them, only as far as {@link #freeSlots} allows; their acknowledgements remove them from the queue
 * in Redis.
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

    private static final Logger log = LoggerFactory.getLogger(OutboundDelivery.class);

    private final TransportMetrics metrics;
    private final Disconnector disconnector;
    private final Limits limits;
    /** Null when the node serves no session queues (unit tests of the in-memory path). */
    private final QueueReader queueStore;

    private Consumer<ClientConnection> slotFreed = connection -> {};
    private Consumer<ClientConnection> replayRoom = connection -> {};
    private LiveGate liveGate = (connection, message, partition, offset) -> false;
    private TenantDeliveryQuotas deliveryQuotas = TenantDeliveryQuotas.NONE;

    /**
     * Sees the live deliveries of connections that replay history (see {@code replay.ReplaySeam}), on their event
     * loop, before they are written.
     */
    public interface LiveGate {
        /**
         * @param partition publish partition of the message, -1 when the downlink record did not say
         * @param offset    its offset there, -1 when unknown
         * @return true when the gate took the message (held or dropped): it is not written now
         */
        boolean intercept(ClientConnection connection, OutboundMessage message, int partition, long offset);
    }

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
        this.queueStore = queueStore;
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

    /** Told whenever a connection of a persistent session may take more from its queue. */
    @Override
    public void onSlotFreed(Consumer<ClientConnection> listener) {
        this.slotFreed = listener;
    }

    /**
     * How many messages the session queue may hand over now: free in-flight slots, after the messages already waiting
     * in memory; none while the socket is not writable, the bytes held reach the limit or the tenant is over its
     * delivery quota (the messages stay in the queue; the quota's tick releases the connection).
     */
    @Override
    public int freeSlots(ClientConnection connection) {
        if (!connection.channel().isWritable() || connection.outbound().bytesHeld() >= limits.maxBytes()) {
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
            forget(connection, message);
            return;
        }
        // Read because freeSlots saw room: spent even if that room is gone, the debt is paid in the next window.
        deliveryQuotas.spend(connection, message.payload().length);
        connection.outbound().launch(message, packetId);
        write(connection, message, wire, true);
    }

    /** PUBREL owed for a QoS 2 message the client acknowledged with PUBREC over an earlier connection. */
    @Override
    public void resendRelease(ClientConnection connection, int packetId) {
        OutboundMessage owed = new OutboundMessage("", new byte[0], 2, false, null);
        owed.queueSeq(-1);
        owed.markReleased();
        connection.outbound().launch(owed, packetId);
        writeRelease(connection, packetId, (byte) 0);
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
            write(connection, message, wire, flush);
            return true;
        }
        release(frame);
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
                    "slow consumer: more than " + limits.maxQueued() + " messages or " + limits.maxBytes()
                            + " bytes waiting for it");
        }
    }

    /** PUBACK for an outbound QoS 1 message. */
    public void onPubAck(ClientConnection connection, int packetId) {
        OutboundMessage m = connection.outbound().awaitingAck(packetId);
        if (m != null && m.qos() == 1) {
            settled(connection, packetId);
        }
    }

    /** PUBREC for an outbound QoS 2 message: answer PUBREL (also for an unknown id, with 0x92 in MQTT 5). */
    public void onPubRec(ClientConnection connection, int packetId, int reasonCode) {
        OutboundMessage m = connection.outbound().awaitingAck(packetId);
        if (m != null && reasonCode >= 0x80) {
            // The subscriber refused the message: the exchange ends here (MQTT 5 section 4.3.3).
            settled(connection, packetId);
            return;
        }
        if (m != null && m.qos() == 2 && m.fromQueue() && !m.released() && queueStore != null) {
            // The message must leave the queue before PUBREL goes out: once the client has seen PUBREL it forgets the
            // packet id, and a PUBLISH re-sent after a crash would then be a second delivery.
            queueStore
                    .released(connection.clientId(), m.queueSeq(), packetId)
                    .whenComplete((ok, error) -> connection
                            .channel()
                            .eventLoop()
                            .execute(() -> {
                                if (error != null) {
                                    metrics.sessionQueueFailure();
                                    log.warn(
                                            "Closing {}: its PUBREC of queued message {} could not be recorded: {}",
                                            connection,
                                            m.queueSeq(),
                                            error.toString());
                                    connection.channel().close();
                                    return;
                                }
                                m.markReleased();
                                writeRelease(connection, packetId, (byte) 0);
                            }));
            return;
        }
        byte code = 0;
        if (m == null || m.qos() != 2) {
            code = MqttReasonCodes.PubRel.PACKET_IDENTIFIER_NOT_FOUND.byteValue();
        } else {
            m.markReleased();
        }
        writeRelease(connection, packetId, code);
    }

    private void writeRelease(ClientConnection connection, int packetId, byte code) {
        connection
                .channel()
                .writeAndFlush(InboundAcks.reply(
                        MqttMessageType.PUBREL,
                        packetId,
                        code,
                        ProblemInformation.forAck(
                                connection, code == 0 ? null : "no QoS 2 message with packet id " + packetId),
                        connection.isMqtt5()));
    }

    /** PUBCOMP for an outbound QoS 2 message. */
    public void onPubComp(ClientConnection connection, int packetId) {
        OutboundMessage m = connection.outbound().awaitingAck(packetId);
        if (m != null && m.qos() == 2) {
            settled(connection, packetId);
        }
    }

    private void settled(ClientConnection connection, int packetId) {
        OutboundMessage message = connection.outbound().acknowledge(packetId);
        if (message.fromQueue() && queueStore != null) {
            if (message.released()) {
                queueStore.completed(connection.clientId(), packetId).whenComplete((n, error) -> {
                    if (error != null) {
                        // The PUBREL is re-sent at the next connection; the client answers it with PUBCOMP again.
                        metrics.sessionQueueFailure();
                    }
                });
            } else {
                acknowledged(connection, message.queueSeq());
            }
        }
        drain(connection);
    }

    /**
     * A queued message was acknowledged: it leaves the queue with the others acknowledged in the same turn of the
     * event loop (acknowledgements come in bursts, one read holds many), in one XDEL. Until then it is still in the
     * queue: a node dying in between sends it again (DUP = 1), which QoS 1 allows.
     */
    private void acknowledged(ClientConnection connection, long seq) {
        if (seq <= 0 || queueStore == null) {
            return;
        }
        if (connection.outbound().queueEntryAcknowledged(seq)) {
            connection.channel().eventLoop().execute(() -> removeAcknowledged(connection));
        }
    }

    private void removeAcknowledged(ClientConnection connection) {
        List<Long> seqs = connection.outbound().takeAcknowledgedQueueEntries();
        if (seqs.isEmpty()) {
            return;
        }
        log.debug("Queue of '{}': entries {} done", connection.clientId(), seqs);
        queueStore.removeAll(connection.clientId(), seqs).whenComplete((n, error) -> {
            if (error != null) {
                // They stay in the queue and are sent again (DUP = 1) at the next connection: at least once holds.
                metrics.sessionQueueFailure();
            }
        });
    }

    /** The exchange of a message from the session queue is over (or it will never be sent): it leaves the queue. */
    private void forget(ClientConnection connection, OutboundMessage m) {
        if (m.fromQueue() && m.queueSeq() > 0 && queueStore != null) {
            log.debug("Queue of '{}': entry {} done", connection.clientId(), m.queueSeq());
            queueStore.remove(connection.clientId(), m.queueSeq()).whenComplete((n, error) -> {
                if (error != null) {
                    // It stays in the queue and is sent again (DUP = 1) at the next connection: at least once holds.
                    metrics.sessionQueueFailure();
                }
            });
        }
    }

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
        write(connection, message, wire, flush);
        return true;
    }

    /** Writes the PUBLISH; with {@code flush}, flushes it and counts it (a batch flushes and counts once). */
    private void write(ClientConnection connection, OutboundMessage message, Wire wire, boolean flush) {
        MqttFixedHeader fixed = new MqttFixedHeader(
                MqttMessageType.PUBLISH, message.duplicate(), MqttQoS.valueOf(message.qos()), message.retain(), 0);
        String topic = wire.topicOnWire();
        MqttProperties properties = MqttProperties.NO_PROPERTIES;
        if (connection.isMqtt5()) {
            if (wire.alias() != 0) {
                // Assigned at write time, in write order: the first PUBLISH with a new alias also carries the topic.
                connection.outbound().useAlias(message.clientTopic());
            }
            properties = Wire.properties(message, wire.alias());
        }
        MqttPublishVariableHeader variable =
                new MqttPublishVariableHeader(topic, message.qos() == 0 ? -1 : message.packetId(), properties);
        MqttPublishMessage publish = new MqttPublishMessage(fixed, variable, Unpooled.wrappedBuffer(message.payload()));
        connection.meter().out(1, message.payload().length);
        if (flush) {
            connection.channel().writeAndFlush(publish);
            metrics.publishOut(message.qos());
        } else {
            connection.channel().write(publish);
        }
    }
}
