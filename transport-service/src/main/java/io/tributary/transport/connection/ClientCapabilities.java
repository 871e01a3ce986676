package io.tributary.transport.connection;

import io.netty.handler.codec.mqtt.MqttProperties;

/**
 * What a client declared in CONNECT about what it accepts from us. MQTT 3.x clients cannot declare anything, so
 * they get the protocol defaults ({@link #DEFAULTS}).
 *
 * @param receiveMaximum            outbound QoS 1/2 messages it accepts unacknowledged (MQTT 5 3.1.2.11.3)
 * @param maximumPacketSize         largest packet it accepts; larger messages are dropped for it (3.1.2.11.4)
 * @param topicAliasMaximum         highest topic alias we may send it; 0 = none (3.1.2.11.5)
 * @param requestProblemInformation false: no reason strings or user properties except on PUBLISH, CONNACK and
 *                                  DISCONNECT (3.1.2.11.7)
 */
public record ClientCapabilities(
        int receiveMaximum, long maximumPacketSize, int topicAliasMaximum, boolean requestProblemInformation) {

    /** Absent properties mean: 65535 in flight, packets up to the protocol's limit, no aliases, problems wanted. */
    public static final ClientCapabilities DEFAULTS = new ClientCapabilities(65535, 268_435_460L, 0, true);

    /** Reads the CONNECT properties of an MQTT 5 client; absent ones take the protocol defaults. */
    public static ClientCapabilities fromConnect(MqttProperties props) {
        return new ClientCapabilities(
                (int) unsigned(props, MqttProperties.RECEIVE_MAXIMUM, DEFAULTS.receiveMaximum()),
                unsigned(props, MqttProperties.MAXIMUM_PACKET_SIZE, DEFAULTS.maximumPacketSize()),
                (int) unsigned(props, MqttProperties.TOPIC_ALIAS_MAXIMUM, 0),
                unsigned(props, MqttProperties.REQUEST_PROBLEM_INFORMATION, 1) != 0);
    }

    /**
     * Why these CONNECT properties are a protocol error (MQTT 5 section 3.1.2.11: Receive Maximum or Maximum Packet
     * Size 0, a request flag other than 0 or 1), or {@code null} when they are acceptable.
     */
    public static String protocolProblem(MqttProperties props) {
        if (unsigned(props, MqttProperties.RECEIVE_MAXIMUM, 1) == 0) {
            return "Receive Maximum 0";
        }
        if (unsigned(props, MqttProperties.MAXIMUM_PACKET_SIZE, 1) == 0) {
            return "Maximum Packet Size 0";
        }
        if (unsigned(props, MqttProperties.REQUEST_PROBLEM_INFORMATION, 0) > 1) {
            return "Request Problem Information other than 0 or 1";
        }
        if (unsigned(props, MqttProperties.REQUEST_RESPONSE_INFORMATION, 0) > 1) {
            return "Request Response Information other than 0 or 1";
        }
        return null;
    }

    private static long unsigned(MqttProperties props, int id, long absent) {
        MqttProperties.MqttProperty<?> p = props.getProperty(id);
        return p == null ? absent : Integer.toUnsignedLong((Integer) p.value());
    }
}
