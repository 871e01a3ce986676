package io.tributary.perf.client;

import io.netty.handler.codec.mqtt.MqttFixedHeader;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageIdVariableHeader;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttPubReplyMessageVariableHeader;
import io.netty.handler.codec.mqtt.MqttQoS;

/** The small MQTT control packets a client answers with, and packet id extraction from replies. */
final class MqttPackets {

    /** Stateless, so one instance serves every connection. */
    static final MqttMessage PINGREQ =
            new MqttMessage(new MqttFixedHeader(MqttMessageType.PINGREQ, false, MqttQoS.AT_MOST_ONCE, false, 0));

    private MqttPackets() {}

    /** The packet id of a PUBACK / PUBREC / PUBREL / PUBCOMP, or -1. */
    static int packetId(MqttMessage msg) {
        Object header = msg.variableHeader();
        if (header instanceof MqttPubReplyMessageVariableHeader reply) {
            return reply.messageId();
        }
        if (header instanceof MqttMessageIdVariableHeader id) {
            return id.messageId();
        }
        return -1;
    }

    /** PUBACK, PUBREC, PUBREL (QoS 1 header, as the spec requires) or PUBCOMP for one packet id. */
    static MqttMessage reply(MqttMessageType type, MqttQoS qos, int id) {
        return new MqttMessage(new MqttFixedHeader(type, false, qos, false, 0), MqttMessageIdVariableHeader.from(id));
    }
}
