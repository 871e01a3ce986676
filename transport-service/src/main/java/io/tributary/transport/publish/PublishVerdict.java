package io.tributary.transport.publish;

import io.netty.handler.codec.mqtt.MqttReasonCodes;

/**
 * What becomes of one inbound PUBLISH, as {@link InboundPublishRules} decides it; {@link InboundPublishHandler}
 * carries it out.
 */
public sealed interface PublishVerdict {

    /** Produced to Kafka under {@code topic} (the full name, the alias resolved), then acknowledged. */
    record Accept(String topic) implements PublishVerdict {}

    /** Why a PUBLISH is refused: each is counted differently. */
    enum Refusal {
        /** A {@code $SYS} topic, the broker's own. */
        SYS_TOPIC,
        /** The connection's ACL does not allow the topic. */
        NOT_AUTHORIZED,
        /** Over a limit of {@code limits.ClientLimits} (which counted and logged it). */
        OVER_LIMIT,
        /** Payload format indicator 1 with a payload that is not UTF-8. */
        PAYLOAD_FORMAT
    }

    /**
     * Not produced. QoS 0: dropped. QoS 1/2: PUBACK / PUBREC with {@code reason} in arrival order (MQTT 3.x has no
     * negative acknowledgement: {@code reason} is then {@code SUCCESS} and the message is dropped).
     *
     * @param topic       the topic it was published to (the alias resolved)
     * @param problem     reason string for MQTT 5 clients that want one, or null
     * @param keepsQos2Id the QoS 2 packet id awaits its PUBREL as for a stored message (a successful PUBREC), and a
     *                    re-send with it is only acknowledged again
     */
    record Refuse(Refusal cause, String topic, MqttReasonCodes.PubAck reason, String problem, boolean keepsQos2Id)
            implements PublishVerdict {}

    /** A re-sent QoS 2 PUBLISH already stored once (MQTT 4.3.3): acknowledged again, not produced again. */
    record Resent() implements PublishVerdict {}

    /**
     * The connection is closed, with DISCONNECT {@code reason} for MQTT 5 clients.
     *
     * @param metricCause label of the protocol-error metric, or null for an ordinary close
     */
    record Disconnect(MqttReasonCodes.Disconnect reason, String metricCause, String problem)
            implements PublishVerdict {}
}
