package io.tributary.transport.connect;

import io.netty.handler.codec.mqtt.MqttConnectReturnCode;
import io.tributary.common.session.WarmUpNamespace;
import io.tributary.common.sys.SysTopics;
import io.tributary.common.tenant.TenantTopics;
import io.tributary.common.topic.TopicFilters;
import io.tributary.transport.connect.ConnectVerdict.Close;
import io.tributary.transport.connect.ConnectVerdict.Proceed;
import io.tributary.transport.connect.ConnectVerdict.Refuse;

/**
 * The decisions on a CONNECT the node makes itself, before session-service authenticates it and opens the session,
 * as a pure function of {@link ConnectFacts}: no I/O, no state. In order: the MQTT 5 properties, the authentication
 * method, the client identifier (also: not in the warm-up's reserved namespace), the will topic, then whether this node can take connections at all.
 */
public final class ConnectRules {

    private ConnectRules() {}

    public static ConnectVerdict check(ConnectFacts f) {
        if (f.propertiesProblem() != null) {
            return new Refuse(
                    MqttConnectReturnCode.CONNECTION_REFUSED_PROTOCOL_ERROR,
                    "protocol_error",
                    "CONNECT with " + f.propertiesProblem());
        }
        if (f.mqtt5() && f.authenticationMethod() != null) {
            // No enhanced authentication method is supported (MQTT 5 section 4.12).
            return new Refuse(
                    MqttConnectReturnCode.CONNECTION_REFUSED_BAD_AUTHENTICATION_METHOD,
                    "bad_auth_method",
                    "authentication method " + f.authenticationMethod() + " is not supported");
        }
        boolean assign = f.clientId().isEmpty();
        if (assign && !f.mqtt5() && !f.cleanStart()) {
            // MQTT 3.1.1 section 3.1.3.1: an empty id needs clean session = 1.
            return new Refuse(
                    MqttConnectReturnCode.CONNECTION_REFUSED_IDENTIFIER_REJECTED,
                    "client_id_rejected",
                    "empty client identifier with clean session 0");
        }
        if (!f.warmUp() && f.clientId().startsWith(WarmUpNamespace.ROOT + "/")) {
            // The nodes' own warm-up sessions live there: an outside client must neither take one over nor be
            // taken over by one (a warm-up session starts clean).
            return new Refuse(
                    f.mqtt5()
                            ? MqttConnectReturnCode.CONNECTION_REFUSED_CLIENT_IDENTIFIER_NOT_VALID
                            : MqttConnectReturnCode.CONNECTION_REFUSED_IDENTIFIER_REJECTED,
                    "reserved_client_id",
                    "client identifier " + f.clientId() + " is in the reserved " + WarmUpNamespace.ROOT + " namespace");
        }
        if (f.willTopic() != null) {
            String problem = TopicFilters.topicNameProblem(f.willTopic());
            if (problem != null) {
                return new Close("invalid_will_topic", "will topic invalid: " + problem);
            }
            if (SysTopics.isSys(f.willTopic())) {
                // The same rule as for a PUBLISH: $SYS is the broker's (MQTT 5 section 4.7.2).
                return new Refuse(
                        f.mqtt5()
                                ? MqttConnectReturnCode.CONNECTION_REFUSED_NOT_AUTHORIZED_5
                                : MqttConnectReturnCode.CONNECTION_REFUSED_NOT_AUTHORIZED,
                        "sys_will_topic",
                        "will topic " + f.willTopic() + " is in $SYS");
            }
            if (TenantTopics.isReserved(f.willTopic())) {
                // Tenants' namespaces are mounted there; a client names topics only inside its own.
                return new Refuse(
                        f.mqtt5()
                                ? MqttConnectReturnCode.CONNECTION_REFUSED_NOT_AUTHORIZED_5
                                : MqttConnectReturnCode.CONNECTION_REFUSED_NOT_AUTHORIZED,
                        "reserved_will_topic",
                        "will topic " + f.willTopic() + " is in the reserved " + TenantTopics.ROOT + " namespace");
            }
        }
        if (!f.nodeRegistered()) {
            // A session of an incarnation session-service does not know could never be found dead with its node.
            return new Refuse(
                    serverUnavailable(f.mqtt5()),
                    "node_not_registered",
                    "node not registered with session-service yet");
        }
        if (f.kafkaUnavailable()) {
            return new Refuse(serverUnavailable(f.mqtt5()), "kafka_unavailable", "Kafka does not accept publishes");
        }
        return new Proceed(assign);
    }

    /** Server unavailable, in the CONNACK of the client's protocol level. */
    public static MqttConnectReturnCode serverUnavailable(boolean mqtt5) {
        return mqtt5
                ? MqttConnectReturnCode.CONNECTION_REFUSED_SERVER_UNAVAILABLE_5
                : MqttConnectReturnCode.CONNECTION_REFUSED_SERVER_UNAVAILABLE;
    }
}
