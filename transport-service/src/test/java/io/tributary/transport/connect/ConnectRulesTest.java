package io.tributary.transport.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.mqtt.MqttConnectReturnCode;
import io.tributary.transport.connect.ConnectVerdict.Close;
import io.tributary.transport.connect.ConnectVerdict.Proceed;
import io.tributary.transport.connect.ConnectVerdict.Refuse;
import org.junit.jupiter.api.Test;

class ConnectRulesTest {

    /** A builder of facts: an MQTT 5 CONNECT of client {@code c}, clean start, no will, on a node ready for it. */
    private static final class Facts {
        boolean mqtt5 = true;
        String propertiesProblem;
        Object authenticationMethod;
        String clientId = "c";
        boolean cleanStart = true;
        String willTopic;
        boolean nodeRegistered = true;
        boolean kafkaUnavailable;
        boolean warmUp;

        ConnectVerdict check() {
            return ConnectRules.check(new ConnectFacts(
                    mqtt5,
                    propertiesProblem,
                    authenticationMethod,
                    clientId,
                    cleanStart,
                    willTopic,
                    nodeRegistered,
                    kafkaUnavailable,
                    warmUp));
        }
    }

    private static MqttConnectReturnCode code(ConnectVerdict verdict) {
        assertThat(verdict).isInstanceOf(Refuse.class);
        return ((Refuse) verdict).code();
    }

    @Test
    void a_valid_connect_proceeds_and_keeps_its_client_id() {
        assertThat(new Facts().check()).isEqualTo(new Proceed(false));
    }

    @Test
    void bad_properties_come_first_then_the_authentication_method() {
        Facts f = new Facts();
        f.propertiesProblem = "Receive Maximum 0";
        f.authenticationMethod = "SCRAM-SHA-1";
        f.nodeRegistered = false;
        assertThat(f.check())
                .isEqualTo(new Refuse(
                        MqttConnectReturnCode.CONNECTION_REFUSED_PROTOCOL_ERROR,
                        "protocol_error",
                        "CONNECT with Receive Maximum 0"));
        f.propertiesProblem = null;
        assertThat(f.check())
                .isEqualTo(new Refuse(
                        MqttConnectReturnCode.CONNECTION_REFUSED_BAD_AUTHENTICATION_METHOD,
                        "bad_auth_method",
                        "authentication method SCRAM-SHA-1 is not supported"));
    }

    @Test
    void an_empty_client_id_is_assigned_one_except_in_mqtt311_without_clean_session() {
        Facts f = new Facts();
        f.clientId = "";
        f.cleanStart = false;
        assertThat(f.check()).as("MQTT 5 may resume nothing but gets an id").isEqualTo(new Proceed(true));
        f.mqtt5 = false;
        assertThat(code(f.check())).isEqualTo(MqttConnectReturnCode.CONNECTION_REFUSED_IDENTIFIER_REJECTED);
        f.cleanStart = true;
        assertThat(f.check()).isEqualTo(new Proceed(true));
    }

    @Test
    void an_invalid_will_topic_closes_and_a_sys_one_is_not_authorized() {
        Facts f = new Facts();
        f.willTopic = "a/+";
        assertThat(f.check())
                .isInstanceOfSatisfying(
                        Close.class, c -> assertThat(c.metricCause()).isEqualTo("invalid_will_topic"));
        f.willTopic = "$SYS/x";
        assertThat(code(f.check())).isEqualTo(MqttConnectReturnCode.CONNECTION_REFUSED_NOT_AUTHORIZED_5);
        f.mqtt5 = false;
        assertThat(code(f.check())).isEqualTo(MqttConnectReturnCode.CONNECTION_REFUSED_NOT_AUTHORIZED);
        f.willTopic = "$tenant/acme/last/will";
        assertThat(f.check())
                .isEqualTo(new Refuse(
                        MqttConnectReturnCode.CONNECTION_REFUSED_NOT_AUTHORIZED,
                        "reserved_will_topic",
                        "will topic $tenant/acme/last/will is in the reserved $tenant namespace"));
        f.willTopic = "last/will";
        assertThat(f.check()).isEqualTo(new Proceed(false));
    }

    @Test
    void a_node_not_registered_or_without_kafka_is_unavailable_in_the_clients_protocol() {
        Facts f = new Facts();
        f.kafkaUnavailable = true;
        assertThat(f.check())
                .isEqualTo(new Refuse(
                        MqttConnectReturnCode.CONNECTION_REFUSED_SERVER_UNAVAILABLE_5,
                        "kafka_unavailable",
                        "Kafka does not accept publishes"));
        f.nodeRegistered = false;
        f.mqtt5 = false;
        assertThat(f.check())
                .isEqualTo(new Refuse(
                        MqttConnectReturnCode.CONNECTION_REFUSED_SERVER_UNAVAILABLE,
                        "node_not_registered",
                        "node not registered with session-service yet"));
    }

    @Test
    void the_warm_up_namespace_is_reserved_for_the_nodes_own_warm_up() {
        Facts f = new Facts();
        f.clientId = "$warmup/node-1/3";
        assertThat(code(f.check())).isEqualTo(MqttConnectReturnCode.CONNECTION_REFUSED_CLIENT_IDENTIFIER_NOT_VALID);
        assertThat(((Refuse) f.check()).metricCause()).isEqualTo("reserved_client_id");
        f.mqtt5 = false;
        assertThat(code(f.check())).isEqualTo(MqttConnectReturnCode.CONNECTION_REFUSED_IDENTIFIER_REJECTED);
        f.warmUp = true;
        assertThat(f.check()).isEqualTo(new Proceed(false));
        // Only the namespace itself: an id that merely starts with the word is anyone's.
        f.warmUp = false;
        f.clientId = "$warmupx";
        assertThat(f.check()).isEqualTo(new Proceed(false));
    }
}
