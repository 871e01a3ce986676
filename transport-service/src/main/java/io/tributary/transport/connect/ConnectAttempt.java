package io.tributary.transport.connect;

import io.netty.channel.Channel;
import io.netty.handler.codec.mqtt.MqttConnectMessage;
import io.netty.handler.codec.mqtt.MqttConnectPayload;
import io.netty.handler.codec.mqtt.MqttConnectVariableHeader;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.tributary.common.session.ConnectApi;
import io.tributary.common.tenant.TenantNamespace;
import io.tributary.sessionqueue.SessionQueueing;
import io.tributary.transport.connection.ClientAddress;
import io.tributary.transport.connection.ClientCapabilities;
import io.tributary.transport.connection.ClientCertificate;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.WillMessage;
import io.tributary.transport.publish.PublishRecords;

/**
 * A CONNECT the rules let through, read once into what the session request and the connection are made of, and
 * kept while session-service answers.
 *
 * @param clientId         the client id the session is opened under (assigned when the client sent none)
 * @param assignedId       the node assigned {@code clientId} (the CONNACK says so to MQTT 5 clients)
 * @param keepAlive        the keep-alive in effect: the client's, lowered to the node's maximum
 * @param keepAliveChanged {@code keepAlive} is not what the client asked for (MQTT 5 clients are told)
 * @param expiry           session expiry in seconds; a 3.x session that is not clean never expires
 * @param will             null when the CONNECT has no will
 * @param incarnation      the node's incarnation when the CONNECT was read: if it changed by the time
 *                         session-service answers, the node was fenced meanwhile
 */
record ConnectAttempt(
        String clientId,
        boolean assignedId,
        MqttVersion version,
        boolean cleanSession,
        int keepAlive,
        boolean keepAliveChanged,
        long expiry,
        ClientCapabilities capabilities,
        WillMessage will,
        String incarnation) {

    private static final long NEVER_EXPIRES = 0xFFFFFFFFL;

    static ConnectAttempt of(
            MqttConnectMessage message, String clientId, boolean assignedId, int maxKeepAlive, String incarnation) {
        MqttConnectVariableHeader header = message.variableHeader();
        MqttConnectPayload payload = message.payload();
        MqttVersion version = MqttVersion.fromProtocolNameAndLevel(header.name(), (byte) header.version());
        boolean v5 = version == MqttVersion.MQTT_5;
        MqttProperties props = header.properties();
        WillMessage will = header.isWillFlag()
                ? new WillMessage(
                        payload.willTopic(),
                        payload.willMessageInBytes(),
                        header.willQos(),
                        header.isWillRetain(),
                        payload.willProperties())
                : null;
        long expiry = v5
                ? intProperty(props, MqttProperties.SESSION_EXPIRY_INTERVAL, 0)
                : (header.isCleanSession() ? 0 : NEVER_EXPIRES);
        ClientCapabilities capabilities = v5 ? ClientCapabilities.fromConnect(props) : ClientCapabilities.DEFAULTS;
        int requestedKeepAlive = header.keepAliveTimeSeconds();
        // Lowered to the node's maximum for every protocol level; MQTT 5 clients are told (Server Keep Alive).
        int keepAlive = KeepAliveCap.effective(requestedKeepAlive, maxKeepAlive);
        return new ConnectAttempt(
                clientId,
                assignedId,
                version,
                header.isCleanSession(),
                keepAlive,
                keepAlive != requestedKeepAlive,
                expiry,
                capabilities,
                will,
                incarnation);
    }

    boolean mqtt5() {
        return version == MqttVersion.MQTT_5;
    }

    /** What session-service is asked to open the session with; the credentials come from the CONNECT. */
    ConnectApi.ConnectRequest request(MqttConnectMessage message, String nodeId, Channel channel) {
        MqttConnectPayload payload = message.payload();
        // Verified by the TLS handshake already (mutual TLS); authentication maps it to credentials.
        ClientCertificate certificate = ClientCertificate.of(channel);
        return new ConnectApi.ConnectRequest(
                clientId,
                nodeId,
                cleanSession,
                expiry,
                version.protocolLevel(),
                keepAlive,
                String.valueOf(ClientAddress.of(channel)),
                payload.userName(),
                incarnation,
                will == null ? null : PublishRecords.willForSession(will),
                message.variableHeader().hasPassword() ? payload.passwordInBytes() : null,
                certificate == null ? null : certificate.commonName(),
                WarmUpMark.carries(channel));
    }

    /** The connection of the session session-service opened, in the tenant's namespace it answered. */
    ClientConnection connection(Channel channel, ConnectApi.ConnectResponse response, int topicAliasMaximum) {
        // The expiry session-service stored: lower than asked when it is above the cluster's maximum.
        long granted = GrantedSessionExpiry.of(expiry, response);
        ClientConnection connection = new ClientConnection(
                channel,
                clientId,
                response.epoch(),
                version,
                cleanSession,
                keepAlive,
                granted,
                capabilities,
                topicAliasMaximum,
                will,
                SessionQueueing.queueBacked(granted, response.sessionPresent()));
        connection.sessionExpiryLowered(granted != expiry);
        connection.namespace(TenantNamespace.of(response.tenant()));
        return connection;
    }

    private static long intProperty(MqttProperties props, int id, long absent) {
        MqttProperties.MqttProperty<?> p = props.getProperty(id);
        return p == null ? absent : Integer.toUnsignedLong((Integer) p.value());
    }
}
