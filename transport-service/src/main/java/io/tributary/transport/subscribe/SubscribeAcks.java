package io.tributary.transport.subscribe;

import io.netty.handler.codec.mqtt.MqttFixedHeader;
import io.netty.handler.codec.mqtt.MqttMessageIdAndPropertiesVariableHeader;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttQoS;
import io.netty.handler.codec.mqtt.MqttSubAckMessage;
import io.netty.handler.codec.mqtt.MqttSubAckPayload;
import io.netty.handler.codec.mqtt.MqttUnsubAckMessage;
import io.netty.handler.codec.mqtt.MqttUnsubAckPayload;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.ProblemInformation;
import io.tributary.transport.sessionclient.SessionServiceClient;
import java.util.List;
import java.util.concurrent.CompletionException;

/**
 * The SUBACK and UNSUBACK packets, with the refused filters' reasons in one Reason String (when the client wants
 * problem information), and how a failed session-service call is read.
 */
final class SubscribeAcks {

    private SubscribeAcks() {}

    static MqttSubAckMessage subAck(ClientConnection connection, int packetId, int[] codes, List<String> problems) {
        MqttFixedHeader fixed = new MqttFixedHeader(MqttMessageType.SUBACK, false, MqttQoS.AT_MOST_ONCE, false, 0);
        return new MqttSubAckMessage(
                fixed,
                new MqttMessageIdAndPropertiesVariableHeader(
                        packetId, ProblemInformation.forAck(connection, reason(problems))),
                new MqttSubAckPayload(codes));
    }

    /** MQTT 3.1.1 UNSUBACK has no payload; MQTT 5 carries one code per filter. */
    static MqttUnsubAckMessage unsubAck(
            ClientConnection connection, int packetId, short[] codes, List<String> problems) {
        MqttFixedHeader fixed = new MqttFixedHeader(MqttMessageType.UNSUBACK, false, MqttQoS.AT_MOST_ONCE, false, 0);
        MqttMessageIdAndPropertiesVariableHeader variable = new MqttMessageIdAndPropertiesVariableHeader(
                packetId, ProblemInformation.forAck(connection, reason(problems)));
        return new MqttUnsubAckMessage(fixed, variable, connection.isMqtt5() ? new MqttUnsubAckPayload(codes) : null);
    }

    /** Session-service answered that a newer connection holds the session (its epoch is newer). */
    static boolean takenOver(Throwable failure) {
        return failure != null && unwrap(failure) instanceof SessionServiceClient.StaleEpochException;
    }

    static Throwable unwrap(Throwable t) {
        return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    }

    /** One reason string for all refused filters of a packet, or null when none was refused. */
    private static String reason(List<String> problems) {
        return problems.isEmpty() ? null : String.join("; ", problems);
    }
}
