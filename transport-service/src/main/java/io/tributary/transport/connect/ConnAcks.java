package io.tributary.transport.connect;

import io.netty.handler.codec.mqtt.MqttConnAckMessage;
import io.netty.handler.codec.mqtt.MqttConnectReturnCode;
import io.netty.handler.codec.mqtt.MqttMessageBuilders;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.tributary.common.session.ConnectApi;
import io.tributary.transport.config.TransportProperties;
import io.tributary.transport.connection.ClientConnection;

/** The CONNACKs a node answers with, decided from the outcome alone (no channel, no state). */
final class ConnAcks {

    private ConnAcks() {}

    /** A refusal's return code and the {@code cause} label it is counted under. */
    record Refusal(MqttConnectReturnCode code, String metricCause) {}

    /**
     * The accepting CONNACK; for MQTT 5 with the server's limits and capabilities (MQTT 5 3.2.2.3), the assigned
     * client id, the Server Keep Alive and the Session Expiry Interval when the server changed them.
     */
    static MqttConnAckMessage accepted(
            ClientConnection connection,
            boolean sessionPresent,
            boolean assignedId,
            boolean keepAliveChanged,
            TransportProperties.Mqtt mqtt) {
        // MQTT 3.1 has no session present flag: that bit of its CONNACK is reserved.
        boolean present = sessionPresent && connection.version() != MqttVersion.MQTT_3_1;
        MqttMessageBuilders.ConnAckBuilder ack = MqttMessageBuilders.connAck()
                .returnCode(MqttConnectReturnCode.CONNECTION_ACCEPTED)
                .sessionPresent(present);
        if (connection.isMqtt5()) {
            ack.properties(p -> {
                if (assignedId) {
                    p.assignedClientId(connection.clientId());
                }
                if (keepAliveChanged) {
                    p.serverKeepAlive(connection.keepAliveSeconds());
                }
                if (connection.sessionExpiryLowered()) {
                    // MQTT 5 3.2.2.3.2: the client must use this value instead of the one it sent.
                    p.sessionExpiryInterval((int) connection.sessionExpirySeconds());
                }
                p.maximumPacketSize(mqtt.maxPacketSize());
                p.receiveMaximum(mqtt.receiveMaximum());
                p.retainAvailable(true);
                p.sharedSubscriptionAvailable(true);
                p.subscriptionIdentifiersAvailable(true);
                p.topicAliasMaximum(mqtt.topicAliasMaximum());
            });
        }
        return ack.build();
    }

    /**
     * Session-service refused the client: MQTT 5 CONNACK 0x86 (bad user name or password), 0x87 (not authorized),
     * 0x8A (banned: on the block list), 0x97 (its tenant's connection or session quota is used up) or 0x9F (its
     * tenant's CONNECT rate is), MQTT 3.x return codes 4, 5, 5, 3 and 3.
     */
    static Refusal refusedBySessionService(boolean v5, ConnectApi.RefusalReason reason) {
        return switch (reason) {
            case BAD_USERNAME_OR_PASSWORD ->
                new Refusal(
                        v5
                                ? MqttConnectReturnCode.CONNECTION_REFUSED_BAD_USERNAME_OR_PASSWORD
                                : MqttConnectReturnCode.CONNECTION_REFUSED_BAD_USER_NAME_OR_PASSWORD,
                        "bad_credentials");
            case BANNED ->
                new Refusal(
                        v5
                                ? MqttConnectReturnCode.CONNECTION_REFUSED_BANNED
                                : MqttConnectReturnCode.CONNECTION_REFUSED_NOT_AUTHORIZED,
                        "banned");
            case NOT_AUTHORIZED ->
                new Refusal(
                        v5
                                ? MqttConnectReturnCode.CONNECTION_REFUSED_NOT_AUTHORIZED_5
                                : MqttConnectReturnCode.CONNECTION_REFUSED_NOT_AUTHORIZED,
                        "not_authorized");
            case QUOTA_EXCEEDED ->
                new Refusal(
                        v5
                                ? MqttConnectReturnCode.CONNECTION_REFUSED_QUOTA_EXCEEDED
                                : MqttConnectReturnCode.CONNECTION_REFUSED_SERVER_UNAVAILABLE,
                        "quota_exceeded");
            case CONNECTION_RATE_EXCEEDED ->
                new Refusal(
                        v5
                                ? MqttConnectReturnCode.CONNECTION_REFUSED_CONNECTION_RATE_EXCEEDED
                                : MqttConnectReturnCode.CONNECTION_REFUSED_SERVER_UNAVAILABLE,
                        "connection_rate_exceeded");
        };
    }

    /**
     * More CONNECTs than session-service keeps up with: refused at once so the client backs off and retries, instead
     * of a hang that ends in a closed socket (MQTT 5 0x89 server busy; MQTT 3.x has only 3, server unavailable).
     */
    static Refusal overloaded(boolean v5) {
        return new Refusal(
                v5
                        ? MqttConnectReturnCode.CONNECTION_REFUSED_SERVER_BUSY
                        : MqttConnectReturnCode.CONNECTION_REFUSED_SERVER_UNAVAILABLE,
                "overloaded");
    }
}
