package io.tributary.transport.delivery;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.mqtt.MqttFixedHeader;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttPublishMessage;
import io.netty.handler.codec.mqtt.MqttPublishVariableHeader;
import io.netty.handler.codec.mqtt.MqttQoS;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.InboundAcks;
import io.tributary.transport.connection.OutboundMessage;
import io.tributary.transport.connection.ProblemInformation;
import io.tributary.transport.metrics.TransportMetrics;

/**
 * Writes the outbound packets of one subscriber's exchanges: PUBLISH, as the {@link Wire} decided it (topic or
 * alias, per-subscriber properties), and PUBREL. Every method runs on the connection's event loop.
 */
final class PublishWriter {

    private final TransportMetrics metrics;

    PublishWriter(TransportMetrics metrics) {
        this.metrics = metrics;
    }

    /** Writes the PUBLISH; with {@code flush}, flushes it and counts it (a batch flushes and counts once). */
    void write(ClientConnection connection, OutboundMessage message, Wire wire, boolean flush) {
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

    /** PUBREL for {@code packetId}; a code other than 0 says the id is unknown (MQTT 5 0x92). */
    void writeRelease(ClientConnection connection, int packetId, byte code) {
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
}
