package io.tributary.transport.delivery;

import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.handler.codec.mqtt.MqttFixedHeader;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttPublishMessage;
import io.netty.handler.codec.mqtt.MqttPublishVariableHeader;
import io.netty.handler.codec.mqtt.MqttQoS;
import io.tributary.transport.alias.OutboundTopicAliases;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.ProblemInformation;
import io.tributary.transport.publish.InboundAcks;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.sessionqueue.SessionQueueStore;

/**
 * Writes messages to one subscriber and runs the outbound QoS 1/2 handshakes: packet ids, the in-flight window
 * (the client's Receive Maximum, capped by ours), a bounded queue behind it; MQTT 5 topic aliases and subscription
 * identifiers are added per subscriber. Every method runs on the connection's event loop.
 */
public final class OutboundDelivery {

    private static final Logger log = LoggerFactory.getLogger(OutboundDelivery.class);

    private final TransportMetrics metrics;
    private final int maxInflight;
    private final int maxQueued;
    /** Null when the node serves no session queues (some unit tests). */
    private final SessionQueueStore queueStore;
    private Consumer<ClientConnection> slotFreed = connection -> { };

    public OutboundDelivery(TransportMetrics metrics, int maxInflight, int maxQueued) {
        this(metrics, maxInflight, maxQueued, null);
    }

    public OutboundDelivery(TransportMetrics metrics, int maxInflight, int maxQueued, SessionQueueStore queueStore) {
        this.metrics = metrics;
        this.maxInflight = maxInflight;
        this.maxQueued = maxQueued;
        this.queueStore = queueStore;
    }

    /** Told whenever an in-flight slot of a connection is freed (the session queue reader reads on). */
    public void onSlotFreed(Consumer<ClientConnection> listener) {
        this.slotFreed = listener;
    }

    /** In-flight slots the session queue may fill now: messages already waiting in memory go first. */
    public int freeSlots(ClientConnection connection) {
        return window(connection) - connection.inflight().size() - connection.queued().size();
    }

    /**
     * Sends a message read from the connection's session queue with the packet id its sequence gives it. The caller
     * checked that the id is free and that a slot is.
     */
    public void sendQueued(ClientConnection connection, OutboundMessage message, int packetId) {
        if (!connection.channel().isActive()) {
            return;
        }
        if (encodedSize(message) > connection.clientMaximumPacketSize()) {
            metrics.dropped("client_packet_size");
            forget(connection, message);
            return;
        }
        message.packetId(packetId);
        connection.inflight().put(packetId, message);
        write(connection, message);
    }

    /** PUBREL owed for a QoS 2 message the client acknowledged with PUBREC over an earlier connection. */
    public void resendRelease(ClientConnection connection, int packetId) {
        OutboundMessage owed = new OutboundMessage("", new byte[0], 2, false, null);
        owed.packetId(packetId);
        owed.queueSeq(-1);
        owed.markReleased();
        connection.inflight().put(packetId, owed);
        connection.channel().writeAndFlush(InboundAcks.reply(MqttMessageType.PUBREL, packetId, (byte) 0, null,
                connection.isMqtt5()));
    }

    public void deliver(ClientConnection connection, OutboundMessage message) {
        Channel channel = connection.channel();
        if (!channel.isActive()) {
            metrics.dropped("connection_closed");
            return;
        }
        if (encodedSize(message) > connection.clientMaximumPacketSize()) {
            // MQTT 5 section 3.1.2.11.4: a message larger than the client accepts is discarded for that client.
            metrics.dropped("client_packet_size");
            return;
        }
        if (message.qos() == 0) {
            if (!channel.isWritable()) {
                metrics.dropped("slow_consumer_qos0");
                return;
            }
            write(connection, message);
            return;
        }
        if (connection.inflight().size() < window(connection)) {
            send(connection, message);
        } else if (connection.queued().size() < maxQueued) {
            connection.queued().addLast(message);
        } else {
            metrics.dropped("queue_full");
        }
    }

    /** PUBACK for an outbound QoS 1 message. */
    public void onPubAck(ClientConnection connection, int packetId) {
        OutboundMessage m = connection.inflight().get(packetId);
        if (m != null && m.qos() == 1) {
            connection.inflight().remove(packetId);
            forget(connection, m);
            drain(connection);
        }
    }

    /** PUBREC for an outbound QoS 2 message: answer PUBREL (also for an unknown id, with 0x92 in MQTT 5). */
    public void onPubRec(ClientConnection connection, int packetId, int reasonCode) {
        OutboundMessage m = connection.inflight().get(packetId);
        if (m != null && reasonCode >= 0x80) {
            // The subscriber refused the message: the exchange ends here (MQTT 5 section 4.3.3).
            connection.inflight().remove(packetId);
            forget(connection, m);
            drain(connection);
            return;
        }
        if (m != null && m.qos() == 2 && m.fromQueue() && !m.released() && queueStore != null) {
            // The message must leave the queue before PUBREL goes out: once the client has seen PUBREL it forgets the
            // packet id, and a PUBLISH re-sent after a crash would then be a second delivery.
            queueStore.released(connection.clientId(), m.queueSeq(), packetId).whenComplete((ok, error) ->
                    connection.channel().eventLoop().execute(() -> {
                        if (error != null) {
                            metrics.sessionQueueFailure();
                            log.warn("Closing {}: its PUBREC of queued message {} could not be recorded: {}",
                                    connection, m.queueSeq(), error.toString());
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
            code = (byte) 0x92;
        } else {
            m.markReleased();
        }
        writeRelease(connection, packetId, code);
    }

    private void writeRelease(ClientConnection connection, int packetId, byte code) {
        connection.channel().writeAndFlush(InboundAcks.reply(MqttMessageType.PUBREL, packetId, code,
                ProblemInformation.forAck(connection, code == 0 ? null : "no QoS 2 message with packet id " + packetId),
                connection.isMqtt5()));
    }

    /** PUBCOMP for an outbound QoS 2 message. */
    public void onPubComp(ClientConnection connection, int packetId) {
        OutboundMessage m = connection.inflight().get(packetId);
        if (m != null && m.qos() == 2) {
            connection.inflight().remove(packetId);
            if (m.fromQueue() && queueStore != null) {
                queueStore.completed(connection.clientId(), packetId).whenComplete((ok, error) -> {
                    if (error != null) {
                        // The PUBREL is re-sent at the next connection; the client answers it with PUBCOMP again.
                        metrics.sessionQueueFailure();
                    }
                });
            }
            drain(connection);
        }
    }

    /** The exchange of a message from the session queue is over (or it will never be sent): it leaves the queue. */
    private void forget(ClientConnection connection, OutboundMessage m) {
        if (m.fromQueue() && m.queueSeq() > 0 && queueStore != null) {
            queueStore.remove(connection.clientId(), m.queueSeq()).whenComplete((n, error) -> {
                if (error != null) {
                    // It stays in the queue and is sent again (DUP = 1) at the next connection: at least once holds.
                    metrics.sessionQueueFailure();
                }
            });
        }
    }

    private int window(ClientConnection connection) {
        return Math.min(maxInflight, connection.clientReceiveMaximum());
    }

    private void drain(ClientConnection connection) {
        while (!connection.queued().isEmpty() && connection.inflight().size() < window(connection)) {
            send(connection, connection.queued().pollFirst());
        }
        if (connection.queueCursor() != null && freeSlots(connection) > 0) {
            slotFreed.accept(connection);
        }
    }

    private void send(ClientConnection connection, OutboundMessage message) {
        int packetId = connection.allocatePacketId();
        if (packetId < 0) {
            metrics.dropped("no_packet_id");
            return;
        }
        message.packetId(packetId);
        connection.inflight().put(packetId, message);
        write(connection, message);
    }

    private void write(ClientConnection connection, OutboundMessage message) {
        MqttFixedHeader fixed = new MqttFixedHeader(MqttMessageType.PUBLISH, message.duplicate(),
                MqttQoS.valueOf(message.qos()), message.retain(), 0);
        String topic = message.topic();
        MqttProperties properties = MqttProperties.NO_PROPERTIES;
        if (connection.isMqtt5()) {
            // Decided at write time, in write order: the first PUBLISH with a new alias must also carry the topic.
            OutboundTopicAliases.Use alias = connection.outboundAliases() == null ? null
                    : connection.outboundAliases().use(topic);
            if (alias != null) {
                topic = alias.topicOnWire();
            }
            properties = wireProperties(message, alias == null ? 0 : alias.alias());
        }
        MqttPublishVariableHeader variable = new MqttPublishVariableHeader(topic,
                message.qos() == 0 ? -1 : message.packetId(), properties);
        connection.channel().writeAndFlush(
                new MqttPublishMessage(fixed, variable, Unpooled.wrappedBuffer(message.payload())));
        metrics.publishOut(message.qos());
    }

    /** The record's properties plus this subscriber's own: subscription identifiers and topic alias. */
    private static MqttProperties wireProperties(OutboundMessage message, int alias) {
        MqttProperties shared = message.properties() == null ? MqttProperties.NO_PROPERTIES : message.properties();
        if (alias == 0 && message.subscriptionIds().length == 0) {
            return shared;
        }
        MqttProperties own = new MqttProperties();
        for (MqttProperties.MqttProperty<?> p : shared.listAll()) {
            own.add(p);
        }
        for (int id : message.subscriptionIds()) {
            own.add(new MqttProperties.IntegerProperty(MqttProperties.SUBSCRIPTION_IDENTIFIER, id));
        }
        if (alias != 0) {
            own.add(new MqttProperties.IntegerProperty(MqttProperties.TOPIC_ALIAS, alias));
        }
        return own;
    }

    private static long encodedSize(OutboundMessage m) {
        // Fixed header (at most 5) + topic length prefix and bytes + packet id + payload; properties are small
        // next to the limits that matter, so they are estimated generously.
        return 5 + 2 + m.topic().getBytes(StandardCharsets.UTF_8).length + 2 + m.payload().length
                + (m.properties() == null ? 0 : 64) + 5L * m.subscriptionIds().length;
    }
}
