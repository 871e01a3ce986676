package io.tributary.transport.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.mqtt.MqttConnAckMessage;
import io.netty.handler.codec.mqtt.MqttConnectReturnCode;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.ConnectApi.RefusalReason;
import io.tributary.transport.config.TransportProperties;
import io.tributary.transport.connection.ClientCapabilities;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.delivery.SlowConsumerPolicy;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

class ConnAcksTest {

    @Test
    void test_overload_is_server_busy_for_mqtt5_and_server_unavailable_for_3x() {
        assertThat(ConnAcks.overloaded(true).code()).isEqualTo(MqttConnectReturnCode.CONNECTION_REFUSED_SERVER_BUSY);
        assertThat(ConnAcks.overloaded(true).code().byteValue()).isEqualTo((byte) 0x89);
        assertThat(ConnAcks.overloaded(false).code().byteValue()).isEqualTo((byte) 3);
        assertThat(ConnAcks.overloaded(false).metricCause()).isEqualTo("overloaded");
    }

    @Test
    void test_session_service_refusals_map_to_the_protocols_codes() {
        assertThat(ConnAcks.refusedBySessionService(true, RefusalReason.BAD_USERNAME_OR_PASSWORD)
                        .code()
                        .byteValue())
                .isEqualTo((byte) 0x86);
        assertThat(ConnAcks.refusedBySessionService(false, RefusalReason.BAD_USERNAME_OR_PASSWORD)
                        .code()
                        .byteValue())
                .isEqualTo((byte) 4);
        assertThat(ConnAcks.refusedBySessionService(true, RefusalReason.NOT_AUTHORIZED)
                        .code()
                        .byteValue())
                .isEqualTo((byte) 0x87);
        assertThat(ConnAcks.refusedBySessionService(true, RefusalReason.BANNED)
                        .code()
                        .byteValue())
                .isEqualTo((byte) 0x8A);
        assertThat(ConnAcks.refusedBySessionService(false, RefusalReason.BANNED)
                        .code()
                        .byteValue())
                .isEqualTo((byte) 5);
        assertThat(ConnAcks.refusedBySessionService(false, RefusalReason.BANNED).metricCause())
                .isEqualTo(
                        "banned"); // A tenant's connection quota: MQTT 5 0x97; MQTT 3.x has only 3 (server unavailable:
        // try again later).
        assertThat(ConnAcks.refusedBySessionService(true, RefusalReason.QUOTA_EXCEEDED)
                        .code()
                        .byteValue())
                .isEqualTo((byte) 0x97);
        assertThat(ConnAcks.refusedBySessionService(false, RefusalReason.QUOTA_EXCEEDED)
                        .code()
                        .byteValue())
                .isEqualTo((byte) 3);
    }

    @Test
    void test_a_tenants_connect_rate_is_connection_rate_exceeded_for_mqtt5_and_server_unavailable_for_3x() {
        ConnAcks.Refusal v5 = ConnAcks.refusedBySessionService(true, RefusalReason.CONNECTION_RATE_EXCEEDED);
        assertThat(v5.code().byteValue()).isEqualTo((byte) 0x9F);
        assertThat(v5.metricCause()).isEqualTo("connection_rate_exceeded");
        assertThat(ConnAcks.refusedBySessionService(false, RefusalReason.CONNECTION_RATE_EXCEEDED)
                        .code()
                        .byteValue())
                .isEqualTo((byte) 3);
    }

    private static final TransportProperties.Mqtt MQTT = new TransportProperties.Mqtt(
            "127.0.0.1",
            0,
            true,
            1 << 20,
            Duration.ofSeconds(5),
            600,
            10,
            10,
            10,
            1,
            1,
            DataSize.ofMegabytes(1),
            DataSize.ofMegabytes(64),
            SlowConsumerPolicy.DROP);

    private static ClientConnection connection(MqttVersion version, long requested, ConnectApi.ConnectResponse r) {
        long granted = GrantedSessionExpiry.of(requested, r);
        ClientConnection c = new ClientConnection(
                new EmbeddedChannel(),
                "c1",
                r.epoch(),
                version,
                false,
                30,
                granted,
                ClientCapabilities.DEFAULTS,
                1,
                null,
                true);
        c.sessionExpiryLowered(granted != requested);
        return c;
    }

    private static MqttProperties.MqttProperty<?> sessionExpiry(MqttConnAckMessage ack) {
        return ack.variableHeader().properties().getProperty(MqttProperties.SESSION_EXPIRY_INTERVAL);
    }

    @Test
    void test_a_session_expiry_lowered_by_session_service_is_used_and_told_to_an_mqtt5_client() {
        ConnectApi.ConnectResponse lowered =
                new ConnectApi.ConnectResponse(7, false, List.of(), null, null, null, 604_800L);
        ClientConnection v5 = connection(MqttVersion.MQTT_5, 0xFFFFFFFFL, lowered);
        assertThat(v5.sessionExpirySeconds()).isEqualTo(604_800L);
        assertThat(sessionExpiry(ConnAcks.accepted(v5, false, false, false, MQTT))
                        .value())
                .isEqualTo(604_800);

        // What the client asked for: not repeated; an older session-service that does not say: the request.
        ClientConnection kept = connection(
                MqttVersion.MQTT_5, 3600, new ConnectApi.ConnectResponse(7, false, List.of(), null, null, null, 3600L));
        assertThat(sessionExpiry(ConnAcks.accepted(kept, false, false, false, MQTT)))
                .isNull();
        ClientConnection older =
                connection(MqttVersion.MQTT_5, 0xFFFFFFFFL, new ConnectApi.ConnectResponse(7, false, List.of()));
        assertThat(older.sessionExpirySeconds()).isEqualTo(0xFFFFFFFFL);
        assertThat(sessionExpiry(ConnAcks.accepted(older, false, false, false, MQTT)))
                .isNull();

        // MQTT 3.1.1 clean session 0 (never) gets the maximum too; its CONNACK has no properties.
        ClientConnection v311 = connection(MqttVersion.MQTT_3_1_1, 0xFFFFFFFFL, lowered);
        assertThat(v311.sessionExpirySeconds()).isEqualTo(604_800L);
        assertThat(sessionExpiry(ConnAcks.accepted(v311, false, false, false, MQTT)))
                .isNull();
    }
}
