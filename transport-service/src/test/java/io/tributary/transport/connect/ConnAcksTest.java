package io.tributary.transport.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.mqtt.MqttConnectReturnCode;
import io.tributary.common.session.SessionApi.RefusalReason;
import org.junit.jupiter.api.Test;

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
}
