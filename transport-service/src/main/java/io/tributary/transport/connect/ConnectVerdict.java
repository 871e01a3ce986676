package io.tributary.transport.connect;

import io.netty.handler.codec.mqtt.MqttConnectReturnCode;

/**
 * What becomes of a CONNECT before session-service is asked, as {@link ConnectRules} decides it; {@link ConnectHandler}
 * carries it out.
 */
public sealed interface ConnectVerdict {

    /**
     * Go on: ask session-service for the session.
     *
     * @param assignClientId the client sent an empty client id, which it may: the node assigns one
     */
    record Proceed(boolean assignClientId) implements ConnectVerdict {}

    /**
     * CONNACK with {@code code}, then close; an MQTT 5 code (0x80 and above) carries {@code problem} as its reason
     * string.
     *
     * @param metricCause label of the refused-connect metric
     */
    record Refuse(MqttConnectReturnCode code, String metricCause, String problem) implements ConnectVerdict {}

    /** Closed without a CONNACK: the CONNECT itself is malformed. */
    record Close(String metricCause, String problem) implements ConnectVerdict {}
}
