package io.tributary.transport.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.mqtt.MqttConnAckMessage;
import io.netty.handler.codec.mqtt.MqttConnectMessage;
import io.netty.handler.codec.mqtt.MqttMessageBuilders;
import io.netty.handler.codec.mqtt.MqttQoS;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.metrics.TransportMetrics;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The CONNECT-time refusals of {@link AdmissionHandler} on EmbeddedChannels (no source IP: node limits only). */
class AdmissionHandlerTest {

    private final AtomicLong now = new AtomicLong();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final LimitRefusals refusals = new LimitRefusals(registry, now::get);
    private final Disconnector disconnector = new Disconnector(new TransportMetrics(registry));

    private static LimitsProperties limits(int maxConnections, double rate, int burst, int maxLevels) {
        return limits(maxConnections, rate, burst, maxLevels, 0, 0);
    }

    private static LimitsProperties limits(
            int maxConnections, double rate, int burst, int maxLevels, int maxClientId, int maxUsername) {
        return new LimitsProperties(
                maxConnections,
                rate,
                burst,
                0,
                1,
                1,
                0,
                1,
                0,
                0,
                maxLevels,
                maxClientId,
                maxUsername,
                Duration.ofSeconds(5),
                Duration.ofSeconds(5));
    }

    /** A channel with the admission check in front of a stand-in for the CONNECT handler that keeps what it gets. */
    private static EmbeddedChannel channel(
            ConnectAdmission admission, LimitRefusals refusals, Disconnector disconnector) {
        return new EmbeddedChannel(
                new AdmissionHandler(admission, refusals, disconnector, null), new ChannelInboundHandlerAdapter());
    }

    private static MqttConnectMessage connect(MqttVersion version, String willTopic) {
        MqttMessageBuilders.ConnectBuilder b = MqttMessageBuilders.connect()
                .clientId("dev-1")
                .protocolVersion(version)
                .keepAlive(30)
                .cleanSession(true);
        if (willTopic != null) {
            b.willFlag(true).willTopic(willTopic).willMessage(new byte[] {1}).willQoS(MqttQoS.AT_MOST_ONCE);
        }
        return b.build();
    }

    private static int returnCode(EmbeddedChannel channel) {
        MqttConnAckMessage ack = channel.readOutbound();
        assertThat(ack).as("CONNACK written").isNotNull();
        return ack.variableHeader().connectReturnCode().byteValue() & 0xFF;
    }

    @Test
    void a_connection_over_the_node_limit_is_refused_0x97_or_3_and_a_closed_one_frees_its_place() {
        ConnectAdmission admission = new ConnectAdmission(limits(2, 0, 1, 0), now::get);
        EmbeddedChannel first = channel(admission, refusals, disconnector);
        EmbeddedChannel second = channel(admission, refusals, disconnector);
        EmbeddedChannel third = channel(admission, refusals, disconnector);
        EmbeddedChannel fourth = channel(admission, refusals, disconnector);
        assertThat(admission.open()).isEqualTo(4);

        first.writeInbound(connect(MqttVersion.MQTT_5, null));
        assertThat((Object) first.readInbound())
                .as("passed on to the CONNECT handler")
                .isNotNull();
        assertThat((Object) first.readOutbound()).isNull();
        third.writeInbound(connect(MqttVersion.MQTT_5, null));
        assertThat(returnCode(third)).isEqualTo(0x97);
        assertThat(third.isActive()).isFalse();

        fourth.writeInbound(
                connect(MqttVersion.MQTT_3_1_1, null),
                MqttMessageBuilders.publish()
                        .topicName("a")
                        .qos(MqttQoS.AT_MOST_ONCE)
                        .payload(io.netty.buffer.Unpooled.wrappedBuffer(new byte[1]))
                        .build());
        assertThat(returnCode(fourth)).as("MQTT 3.1.1: server unavailable").isEqualTo(3);
        assertThat((Object) fourth.readInbound())
                .as("a packet behind a refused CONNECT is dropped")
                .isNull();
        assertThat(refusals.count(LimitRefusals.CONNECTIONS)).isEqualTo(2);

        first.close();
        third.close();
        fourth.close();
        assertThat(admission.open()).isEqualTo(1);
        EmbeddedChannel fifth = channel(admission, refusals, disconnector);
        fifth.writeInbound(connect(MqttVersion.MQTT_5, null));
        assertThat((Object) fifth.readInbound()).isNotNull();
        second.close();
        fifth.close();
    }

    @Test
    void connections_over_the_node_rate_are_refused_0x9f_until_the_bucket_refills() {
        ConnectAdmission admission = new ConnectAdmission(limits(0, 10, 2, 0), now::get);
        EmbeddedChannel a = channel(admission, refusals, disconnector);
        EmbeddedChannel b = channel(admission, refusals, disconnector);
        EmbeddedChannel c = channel(admission, refusals, disconnector);
        c.writeInbound(connect(MqttVersion.MQTT_5, null));
        assertThat(returnCode(c)).isEqualTo(0x9F);
        now.addAndGet(100_000_000L);
        EmbeddedChannel d = channel(admission, refusals, disconnector);
        d.writeInbound(connect(MqttVersion.MQTT_5, null));
        assertThat((Object) d.readInbound()).as("a token again after 100 ms").isNotNull();
        assertThat(refusals.count(LimitRefusals.CONNECTION_RATE)).isEqualTo(1);
        a.close();
        b.close();
        d.close();
    }

    @Test
    void a_will_topic_with_too_many_levels_is_refused_0x90_in_mqtt5_and_closed_in_3() {
        ConnectAdmission admission = new ConnectAdmission(limits(0, 0, 1, 3), now::get);
        EmbeddedChannel ok = channel(admission, refusals, disconnector);
        ok.writeInbound(connect(MqttVersion.MQTT_5, "a/b/c"));
        assertThat((Object) ok.readInbound()).isNotNull();

        EmbeddedChannel v5 = channel(admission, refusals, disconnector);
        v5.writeInbound(connect(MqttVersion.MQTT_5, "a/b/c/d"));
        assertThat(returnCode(v5)).isEqualTo(0x90);

        EmbeddedChannel v3 = channel(admission, refusals, disconnector);
        v3.writeInbound(connect(MqttVersion.MQTT_3_1_1, "a/b/c/d"));
        assertThat((Object) v3.readOutbound())
                .as("3.x has no return code for it")
                .isNull();
        assertThat(v3.isActive()).isFalse();
        assertThat(refusals.count(LimitRefusals.TOPIC_LEVELS)).isEqualTo(2);
    }

    @Test
    void refusals_are_counted_always_and_logged_at_a_bounded_rate() {
        for (int i = 0; i < 1_000; i++) {
            refusals.refused(LimitRefusals.PUBLISH_RATE, "Refusing a packet of client 'x'", "too fast");
        }
        assertThat(refusals.count(LimitRefusals.PUBLISH_RATE)).isEqualTo(1_000);
        assertThat(registry.get("tributary.limit.refusals")
                        .tag("reason", "publish_rate")
                        .counter()
                        .count())
                .isEqualTo(1_000);
        assertThat(registry.get("tributary.limit.refusals")
                        .tag("reason", "blocked_ip")
                        .counter()
                        .count())
                .as("registered from start-up")
                .isZero();
    }

    private static MqttConnectMessage connect(MqttVersion version, String clientId, String username) {
        MqttMessageBuilders.ConnectBuilder b = MqttMessageBuilders.connect()
                .clientId(clientId)
                .protocolVersion(version)
                .keepAlive(30)
                .cleanSession(true);
        if (username != null) {
            b.hasUser(true).username(username);
        }
        return b.build();
    }

    @Test
    void a_client_id_longer_than_the_limit_is_refused_0x85_or_2_before_anything_else_sees_it() {
        ConnectAdmission admission = new ConnectAdmission(limits(0, 0, 1, 0, 30, 0), now::get);
        EmbeddedChannel exact = channel(admission, refusals, disconnector);
        exact.writeInbound(connect(MqttVersion.MQTT_5, "x".repeat(30), null));
        assertThat((Object) exact.readInbound()).as("30 bytes pass").isNotNull();

        EmbeddedChannel v5 = channel(admission, refusals, disconnector);
        v5.writeInbound(connect(MqttVersion.MQTT_5, "x".repeat(31), null));
        assertThat(returnCode(v5)).as("MQTT 5: client identifier not valid").isEqualTo(0x85);
        assertThat((Object) v5.readInbound()).as("not passed on").isNull();
        assertThat(v5.isActive()).isFalse();

        EmbeddedChannel v3 = channel(admission, refusals, disconnector);
        v3.writeInbound(connect(MqttVersion.MQTT_3_1_1, "x".repeat(65_535), null));
        assertThat(returnCode(v3)).as("MQTT 3.1.1: identifier rejected").isEqualTo(2);
        assertThat(v3.isActive()).isFalse();

        // Counted in bytes, as the protocol measures it: 11 three-byte characters are 33 bytes.
        EmbeddedChannel wide = channel(admission, refusals, disconnector);
        wide.writeInbound(connect(MqttVersion.MQTT_5, "\u20ac".repeat(11), null));
        assertThat(returnCode(wide)).isEqualTo(0x85);
        assertThat(refusals.count(LimitRefusals.CLIENT_ID_LENGTH)).isEqualTo(3);
        exact.close();
    }

    @Test
    void a_user_name_longer_than_the_limit_is_refused_0x86_or_4() {
        ConnectAdmission admission = new ConnectAdmission(limits(0, 0, 1, 0, 0, 40), now::get);
        EmbeddedChannel ok = channel(admission, refusals, disconnector);
        ok.writeInbound(connect(MqttVersion.MQTT_5, "x".repeat(1000), "u".repeat(40)));
        assertThat((Object) ok.readInbound())
                .as("no client id limit, a user name at the limit")
                .isNotNull();

        EmbeddedChannel v5 = channel(admission, refusals, disconnector);
        v5.writeInbound(connect(MqttVersion.MQTT_5, "dev-1", "u".repeat(41)));
        assertThat(returnCode(v5)).as("MQTT 5: bad user name or password").isEqualTo(0x86);

        EmbeddedChannel v3 = channel(admission, refusals, disconnector);
        v3.writeInbound(connect(MqttVersion.MQTT_3_1_1, "dev-1", "u".repeat(41)));
        assertThat(returnCode(v3)).as("MQTT 3.1.1: bad user name or password").isEqualTo(4);
        assertThat(refusals.count(LimitRefusals.USERNAME_LENGTH)).isEqualTo(2);
        ok.close();
    }

    @Test
    void utf8_lengths_and_log_form() {
        assertThat(IdentityLengths.utf8Length("abc")).isEqualTo(3);
        assertThat(IdentityLengths.utf8Length("\u00e9")).isEqualTo(2);
        assertThat(IdentityLengths.utf8Length("\u20ac")).isEqualTo(3);
        assertThat(IdentityLengths.utf8Length("\ud83d\ude00"))
                .as("a surrogate pair")
                .isEqualTo(4);
        assertThat(IdentityLengths.utf8Length("\ud83d")).as("unpaired").isEqualTo(3);
        assertThat(IdentityLengths.forLog("dev-1")).isEqualTo("dev-1");
        assertThat(IdentityLengths.forLog("x".repeat(70_000)))
                .hasSize(IdentityLengths.LOGGED_CHARS + "...(70000 characters)".length())
                .endsWith("...(70000 characters)");
    }
}
