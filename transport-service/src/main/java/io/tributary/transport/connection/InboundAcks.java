package io.tributary.transport.connection;

import io.netty.channel.Channel;
import io.netty.handler.codec.mqtt.MqttFixedHeader;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageIdVariableHeader;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttPubReplyMessageVariableHeader;
import io.netty.handler.codec.mqtt.MqttQoS;
import java.util.ArrayDeque;

/**
 * Acknowledgements of inbound QoS 1/2 publishes, sent in the order the publishes arrived (MQTT 3.1.1 section
 * 4.6) although Kafka acknowledges records of different partitions in any order. Used through {@link InboundFlow};
 * the static {@link #reply} builds any PUBACK / PUBREC / PUBREL / PUBCOMP. Event-loop confined.
 */
public final class InboundAcks {

    /** The place of one publish's acknowledgement in arrival order; opaque to its holder. */
    public static final class Slot {
        private final int packetId;
        private final int qos;
        private boolean done;
        private byte reasonCode;
        private MqttProperties properties = MqttProperties.NO_PROPERTIES;

        private Slot(int packetId, int qos) {
            this.packetId = packetId;
            this.qos = qos;
        }
    }

    // Sized for the common case (none or one pending ack): the default 16 slots cost 128 bytes per connection.
    private final ArrayDeque<Slot> pending = new ArrayDeque<>(1);
    /** QoS 1 publishes among {@link #pending}: unacknowledged until their PUBACK is written. */
    private int pendingQos1;

    /** Reserves the acknowledgement slot of a publish, in arrival order. */
    Slot expect(int packetId, int qos) {
        Slot p = new Slot(packetId, qos);
        pending.addLast(p);
        if (qos == 1) {
            pendingQos1++;
        }
        return p;
    }

    /**
     * The publish behind {@code slot} is settled, stored or refused with {@code reasonCode}: acknowledge it in
     * arrival order. A refusal goes through here too, so it never overtakes earlier publishes still waiting for
     * Kafka.
     */
    void complete(Slot p, byte reasonCode, MqttProperties properties, Channel channel, boolean mqtt5) {
        p.done = true;
        p.reasonCode = reasonCode;
        p.properties = properties;
        boolean wrote = false;
        while (!pending.isEmpty() && pending.peekFirst().done) {
            Slot head = pending.pollFirst();
            if (head.qos == 1) {
                pendingQos1--;
            }
            channel.write(reply(
                    head.qos == 1 ? MqttMessageType.PUBACK : MqttMessageType.PUBREC,
                    head.packetId,
                    head.reasonCode,
                    head.properties,
                    mqtt5));
            wrote = true;
        }
        if (wrote) {
            channel.flush();
        }
    }

    /** True while a QoS 2 publish with this id is waiting for Kafka (a re-sent copy must not be produced again). */
    boolean awaiting(int packetId) {
        for (Slot p : pending) {
            if (p.packetId == packetId && !p.done) {
                return true;
            }
        }
        return false;
    }

    int size() {
        return pending.size();
    }

    /** QoS 1 publishes whose PUBACK is not written yet. */
    int pendingQos1() {
        return pendingQos1;
    }

    public static MqttMessage reply(MqttMessageType type, int packetId, byte reasonCode, boolean mqtt5) {
        return reply(type, packetId, reasonCode, MqttProperties.NO_PROPERTIES, mqtt5);
    }

    /** PUBACK, PUBREC, PUBREL or PUBCOMP; {@code properties} (MQTT 5 only) carry a reason string, if any. */
    public static MqttMessage reply(
            MqttMessageType type, int packetId, byte reasonCode, MqttProperties properties, boolean mqtt5) {
        MqttFixedHeader fixed = new MqttFixedHeader(
                type, false, type == MqttMessageType.PUBREL ? MqttQoS.AT_LEAST_ONCE : MqttQoS.AT_MOST_ONCE, false, 0);
        Object variable = mqtt5
                ? new MqttPubReplyMessageVariableHeader(packetId, reasonCode, properties)
                : MqttMessageIdVariableHeader.from(packetId);
        return new MqttMessage(fixed, variable);
    }
}
