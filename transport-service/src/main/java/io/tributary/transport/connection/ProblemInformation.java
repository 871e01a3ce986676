package io.tributary.transport.connection;

import io.netty.handler.codec.mqtt.MqttProperties;

/**
 * Reason strings on MQTT 5 acknowledgements. A client that sent Request Problem Information = 0 gets none on any
 * packet but PUBLISH, CONNACK and DISCONNECT (MQTT 5 section 3.1.2.11.7); those three build their properties
 * themselves, everything else goes through here.
 */
public final class ProblemInformation {

    private static final int MAX_REASON_LENGTH = 200;

    private ProblemInformation() {}

    /** Properties for an acknowledgement (PUBACK, PUBREC, PUBREL, PUBCOMP, SUBACK, UNSUBACK) of {@code connection}. */
    public static MqttProperties forAck(ClientConnection connection, String reason) {
        if (reason == null || !connection.isMqtt5() || !connection.wantsProblemInformation()) {
            return MqttProperties.NO_PROPERTIES;
        }
        return withReason(reason);
    }

    /** A Reason String property on its own, for packets where it is always allowed (CONNACK, DISCONNECT). */
    public static MqttProperties withReason(String reason) {
        MqttProperties properties = new MqttProperties();
        String text = reason.length() <= MAX_REASON_LENGTH ? reason : reason.substring(0, MAX_REASON_LENGTH);
        properties.add(new MqttProperties.StringProperty(MqttProperties.REASON_STRING, text));
        return properties;
    }
}
