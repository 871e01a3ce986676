package io.tributary.it.conformance;

import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.Mqtt5Packets;
import io.tributary.it.support.RawMqtt;
import io.tributary.it.support.Satellite;
import io.tributary.it.support.TributaryCluster;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Anonymous access with an ACL ({@code TRIBUTARY_AUTH_ANONYMOUS_ACL_PUBLISH} / {@code ..._SUBSCRIBE}, the same rule
 * format as a credential's ACL): a filter outside it gets SUBACK 0x87 (MQTT 3.1.1: 0x80), a publish outside it is
 * refused like any ACL denial (MQTT 5 PUBACK 0x87) and never delivered. On a satellite session-service of its own.
 */
@ExtendWith(LogsOnFailure.class)
class AnonymousAclTest {

    private static Satellite satellite;

    @BeforeAll
    static void satellite() throws Exception {
        satellite = TributaryCluster.shared()
                .startSatellite(
                        "it-anon-acl",
                        Map.of(
                                "TRIBUTARY_AUTH_ANONYMOUS", "true",
                                "TRIBUTARY_AUTH_ANONYMOUS_ACL_PUBLISH", "public/#",
                                "TRIBUTARY_AUTH_ANONYMOUS_ACL_SUBSCRIBE", "public/#,anon/%c/#"));
    }

    @AfterAll
    static void stop() {
        if (satellite != null) {
            satellite.close();
        }
    }

    @Test
    void mqtt5_anonymous_subscribe_outside_the_anonymous_acl_gets_0x87() throws Exception {
        String clientId = id("anon5");
        try (RawMqtt raw = new RawMqtt(satellite.mqttPort())) {
            Wire wire = new Wire(raw);
            raw.send(Mqtt5Packets.connect(clientId, 30));
            assertThat(Mqtt5Packets.reasonCode(wire.awaitType(Wire.CONNACK, 10_000)))
                    .as("anonymous accepted")
                    .isZero();
            raw.send(Mqtt5Packets.subscribe(1, "private/" + id("t"), 1));
            assertThat(Mqtt5Packets.reasonCode(wire.awaitType(Wire.SUBACK, 10_000)))
                    .as("denied filter")
                    .isEqualTo(0x87);
            raw.send(Mqtt5Packets.subscribe(2, "#", 1));
            assertThat(Mqtt5Packets.reasonCode(wire.awaitType(Wire.SUBACK, 10_000)))
                    .as("'#' covers denied topics")
                    .isEqualTo(0x87);
            raw.send(Mqtt5Packets.subscribe(3, "anon/" + clientId + "/x", 1));
            assertThat(Mqtt5Packets.reasonCode(wire.awaitType(Wire.SUBACK, 10_000)))
                    .as("%c resolved")
                    .isEqualTo(0x01);
            String publicTopic = "public/" + id("t");
            raw.send(Mqtt5Packets.subscribe(4, publicTopic, 1));
            assertThat(Mqtt5Packets.reasonCode(wire.awaitType(Wire.SUBACK, 10_000)))
                    .as("allowed filter")
                    .isEqualTo(0x01);

            raw.send(Mqtt5Packets.publish("anon/" + clientId + "/x", 1, 5, new byte[] {5}));
            byte[] puback = wire.awaitType(Wire.PUBACK, 10_000);
            assertThat(Mqtt5Packets.reasonCode(puback))
                    .as("publish outside the publish ACL")
                    .isEqualTo(0x87);
            assertThat(wire.await(Wire.publishWithPayload(new byte[] {5}, true), 2_000))
                    .as("denied publish never delivered")
                    .isNull();

            raw.send(Mqtt5Packets.publish(publicTopic, 1, 6, new byte[] {6}));
            assertThat(wire.await(Wire.publishWithPayload(new byte[] {6}, true), 10_000))
                    .as("allowed publish delivered")
                    .isNotNull();
            raw.send(Mqtt5Packets.disconnect());
        }
    }

    @Test
    void mqtt311_anonymous_subscribe_outside_the_anonymous_acl_gets_0x80() throws Exception {
        try (RawMqtt raw = new RawMqtt(satellite.mqttPort())) {
            Wire wire = new Wire(raw);
            raw.send(RawMqtt.connect311(id("anon3"), 30));
            assertThat(wire.awaitType(Wire.CONNACK, 10_000)).as("CONNACK").isNotNull();
            raw.send(RawMqtt.subscribe311(1, "private/" + id("t"), 1));
            assertThat(Mqtt5Packets.reasonCode(wire.awaitType(Wire.SUBACK, 10_000)))
                    .as("denied filter")
                    .isEqualTo(0x80);
            raw.send(RawMqtt.subscribe311(2, "public/" + id("t"), 1));
            assertThat(Mqtt5Packets.reasonCode(wire.awaitType(Wire.SUBACK, 10_000)))
                    .as("allowed filter")
                    .isEqualTo(0x01);
        }
    }

    @Test
    void anonymous_will_outside_the_anonymous_acl_is_refused_0x87() throws Exception {
        try (RawMqtt raw = new RawMqtt(satellite.mqttPort())) {
            Wire wire = new Wire(raw);
            raw.send(Mqtt5Packets.connectWithWill(id("anonwill"), 30, 0, "private/will", new byte[] {1}, 0, 0));
            assertThat(Mqtt5Packets.reasonCode(wire.awaitType(Wire.CONNACK, 10_000)))
                    .as("CONNACK")
                    .isEqualTo(0x87);
        }
    }
}
