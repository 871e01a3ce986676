package io.tributary.transport.publish;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttReasonCodes;
import io.tributary.common.acl.TopicPermissions;
import io.tributary.common.session.ConnectApi;
import io.tributary.transport.alias.InboundTopicAliases;
import io.tributary.transport.connection.MessagePropertyCheck;
import io.tributary.transport.limits.ClientLimits;
import io.tributary.transport.publish.PublishVerdict.Accept;
import io.tributary.transport.publish.PublishVerdict.Disconnect;
import io.tributary.transport.publish.PublishVerdict.Refusal;
import io.tributary.transport.publish.PublishVerdict.Refuse;
import io.tributary.transport.publish.PublishVerdict.Resent;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class InboundPublishRulesTest {

    private static final TopicPermissions METER =
            TopicPermissions.of(new ConnectApi.Acl(List.of("meters/m-1/#"), List.of()));
    private static final byte[] UTF8 = "ok".getBytes(StandardCharsets.UTF_8);
    private static final byte[] NOT_UTF8 = {(byte) 0xC3, (byte) 0x28};

    /** A builder of facts: an MQTT 5 QoS 1 PUBLISH to {@code a/b}, unrestricted, within every limit. */
    private static final class Facts {
        boolean mqtt5 = true;
        int qos = 1;
        String topicName = "a/b";
        Integer alias;
        boolean subscriptionIdentifier;
        MqttProperties properties;
        boolean utf8Declared;
        InboundTopicAliases aliases = new InboundTopicAliases(10);
        boolean receiveMaximumExceeded;
        TopicPermissions permissions = TopicPermissions.UNRESTRICTED;
        boolean resentQos2;

        PublishFacts build() {
            return new PublishFacts(
                    mqtt5,
                    qos,
                    7,
                    topicName,
                    alias,
                    subscriptionIdentifier,
                    MessagePropertyCheck.problem(properties),
                    utf8Declared,
                    mqtt5 ? aliases.resolve(topicName, alias) : null,
                    receiveMaximumExceeded,
                    10,
                    permissions,
                    resentQos2);
        }
    }

    private static MqttProperties properties(MqttProperties.MqttProperty<?>... properties) {
        MqttProperties out = new MqttProperties();
        for (MqttProperties.MqttProperty<?> p : properties) {
            out.add(p);
        }
        return out;
    }

    private static Disconnect disconnected(MqttProperties.MqttProperty<?>... properties) {
        Facts f = new Facts();
        f.properties = properties(properties);
        return (Disconnect) admitted(f);
    }

    private static PublishVerdict admitted(Facts f) {
        return InboundPublishRules.admit(f.build()).verdict();
    }

    @Test
    void a_valid_publish_is_accepted_under_its_topic() {
        assertThat(admitted(new Facts())).isEqualTo(new Accept("a/b"));
        assertThat(InboundPublishRules.afterLimits(new Facts().build(), "a/b", null, UTF8))
                .isEqualTo(new Accept("a/b"));
    }

    @Test
    void a_subscription_identifier_from_an_mqtt5_client_is_a_protocol_error() {
        Facts f = new Facts();
        f.subscriptionIdentifier = true;
        f.alias = 3;
        InboundPublishRules.Admission a = InboundPublishRules.admit(f.build());
        assertThat(a.verdict())
                .isInstanceOfSatisfying(
                        Disconnect.class,
                        d -> assertThat(d.reason()).isEqualTo(MqttReasonCodes.Disconnect.PROTOCOL_ERROR));
        assertThat(a.aliasToDefine()).isZero();
    }

    /** MQTT 5 section 3.3.2.3.5 [MQTT-3.3.2-14]: the Response Topic is a topic name, never a filter. */
    @Test
    void a_response_topic_with_a_wildcard_or_empty_is_a_protocol_error() {
        for (String bad : List.of("reply/+", "reply/#", "#", "")) {
            Disconnect d = disconnected(new MqttProperties.StringProperty(MqttProperties.RESPONSE_TOPIC, bad));
            assertThat(d.reason()).as(bad).isEqualTo(MqttReasonCodes.Disconnect.PROTOCOL_ERROR);
            assertThat(d.problem()).contains("Response Topic");
        }
        Facts valid = new Facts();
        valid.properties = properties(new MqttProperties.StringProperty(MqttProperties.RESPONSE_TOPIC, "reply/m-1"));
        assertThat(admitted(valid)).isEqualTo(new Accept("a/b"));
    }

    /** MQTT 5 section 1.5.4 [MQTT-1.5.4-2]: U+0000 in a UTF-8 string makes the packet malformed. */
    @Test
    void u0000_in_a_string_property_is_a_malformed_packet() {
        for (MqttProperties.MqttProperty<?> bad : List.<MqttProperties.MqttProperty<?>>of(
                new MqttProperties.StringProperty(MqttProperties.CONTENT_TYPE, "text/\0plain"),
                new MqttProperties.StringProperty(MqttProperties.RESPONSE_TOPIC, "reply/\0"),
                new MqttProperties.UserProperty("k\0", "v"),
                new MqttProperties.UserProperty("k", "\0"))) {
            assertThat(disconnected(bad).reason())
                    .as(bad.toString())
                    .isEqualTo(MqttReasonCodes.Disconnect.MALFORMED_PACKET);
        }
    }

    /** MQTT 5 section 3.3.2.3.2 defines the Payload Format Indicator 0 and 1 only. */
    @Test
    void a_payload_format_indicator_other_than_0_or_1_is_a_protocol_error() {
        assertThat(disconnected(new MqttProperties.IntegerProperty(MqttProperties.PAYLOAD_FORMAT_INDICATOR, 2))
                        .reason())
                .isEqualTo(MqttReasonCodes.Disconnect.PROTOCOL_ERROR);
        Facts zero = new Facts();
        zero.properties = properties(new MqttProperties.IntegerProperty(MqttProperties.PAYLOAD_FORMAT_INDICATOR, 0));
        assertThat(admitted(zero)).isEqualTo(new Accept("a/b"));
    }

    @Test
    void alias_problems_disconnect_with_their_own_reason() {
        Facts outside = new Facts();
        outside.alias = 11;
        assertThat(admitted(outside))
                .isEqualTo(new Disconnect(
                        MqttReasonCodes.Disconnect.TOPIC_ALIAS_INVALID,
                        "topic_alias_invalid",
                        "Topic Alias 11 outside 1..10"));

        Facts unknown = new Facts();
        unknown.topicName = "";
        unknown.alias = 2;
        assertThat(admitted(unknown)).isInstanceOfSatisfying(Disconnect.class, d -> {
            assertThat(d.reason()).isEqualTo(MqttReasonCodes.Disconnect.PROTOCOL_ERROR);
            assertThat(d.metricCause()).isEqualTo("protocol_error");
        });
    }

    @Test
    void an_alias_resolves_to_its_topic_and_is_defined_only_by_a_valid_topic_name() {
        Facts defining = new Facts();
        defining.alias = 2;
        assertThat(InboundPublishRules.admit(defining.build()))
                .isEqualTo(new InboundPublishRules.Admission(new Accept("a/b"), 2));

        defining.aliases.define(2, "a/b");
        Facts using = new Facts();
        using.aliases = defining.aliases;
        using.topicName = "";
        using.alias = 2;
        assertThat(InboundPublishRules.admit(using.build()))
                .as("nothing to define: the alias alone")
                .isEqualTo(new InboundPublishRules.Admission(new Accept("a/b"), 0));

        Facts invalid = new Facts();
        invalid.topicName = "a/#";
        invalid.alias = 3;
        InboundPublishRules.Admission a = InboundPublishRules.admit(invalid.build());
        assertThat(a.verdict())
                .isInstanceOfSatisfying(
                        Disconnect.class,
                        d -> assertThat(d.reason()).isEqualTo(MqttReasonCodes.Disconnect.TOPIC_NAME_INVALID));
        assertThat(a.aliasToDefine()).isZero();
    }

    @Test
    void receive_maximum_exceeded_disconnects_after_the_alias_is_defined() {
        Facts f = new Facts();
        f.alias = 4;
        f.receiveMaximumExceeded = true;
        InboundPublishRules.Admission a = InboundPublishRules.admit(f.build());
        assertThat(a.verdict())
                .isInstanceOfSatisfying(
                        Disconnect.class,
                        d -> assertThat(d.reason()).isEqualTo(MqttReasonCodes.Disconnect.RECEIVE_MAXIMUM_EXCEEDED));
        assertThat(a.aliasToDefine()).isEqualTo(4);

        f.mqtt5 = false;
        f.alias = null;
        assertThat(admitted(f)).as("MQTT 3.x is closed alike").isInstanceOf(Disconnect.class);
    }

    @Test
    void sys_topics_are_refused_in_mqtt5_and_acknowledged_and_dropped_in_mqtt311() {
        Facts f = new Facts();
        f.topicName = "$SYS/broker/x";
        f.qos = 2;
        assertThat(admitted(f))
                .isEqualTo(new Refuse(
                        Refusal.SYS_TOPIC,
                        "$SYS/broker/x",
                        MqttReasonCodes.PubAck.NOT_AUTHORIZED,
                        "clients may not publish to $SYS/broker/x",
                        false));
        f.mqtt5 = false;
        assertThat(admitted(f)).isInstanceOfSatisfying(Refuse.class, r -> {
            assertThat(r.reason()).isEqualTo(MqttReasonCodes.PubAck.SUCCESS);
            assertThat(r.keepsQos2Id()).isFalse();
        });
    }

    @Test
    void acl_denials_end_the_qos2_exchange_in_mqtt5_but_keep_the_id_in_mqtt311() {
        Facts f = new Facts();
        f.permissions = METER;
        f.topicName = "meters/m-2/kwh";
        f.qos = 2;
        assertThat(admitted(f))
                .isEqualTo(new Refuse(
                        Refusal.NOT_AUTHORIZED,
                        "meters/m-2/kwh",
                        MqttReasonCodes.PubAck.NOT_AUTHORIZED,
                        "not authorized to publish to 'meters/m-2/kwh'",
                        false));
        f.mqtt5 = false;
        assertThat(admitted(f)).isInstanceOfSatisfying(Refuse.class, r -> {
            assertThat(r.reason()).isEqualTo(MqttReasonCodes.PubAck.SUCCESS);
            assertThat(r.keepsQos2Id()).isTrue();
        });
        f.topicName = "meters/m-1/kwh";
        assertThat(admitted(f)).isEqualTo(new Accept("meters/m-1/kwh"));
    }

    @Test
    void limits_refuse_in_mqtt5_and_close_an_mqtt311_connection_except_for_qos0() {
        ClientLimits.Refusal quota =
                new ClientLimits.Refusal("publish_rate", MqttReasonCodes.PubAck.QUOTA_EXCEEDED.byteValue(), "too fast");
        Facts f = new Facts();
        assertThat(InboundPublishRules.afterLimits(f.build(), "a/b", quota, null))
                .isEqualTo(new Refuse(
                        Refusal.OVER_LIMIT, "a/b", MqttReasonCodes.PubAck.QUOTA_EXCEEDED, "too fast", false));
        f.mqtt5 = false;
        assertThat(InboundPublishRules.afterLimits(f.build(), "a/b", quota, null))
                .isEqualTo(new Disconnect(MqttReasonCodes.Disconnect.QUOTA_EXCEEDED, null, "too fast"));
        f.qos = 0;
        assertThat(InboundPublishRules.afterLimits(f.build(), "a/b", quota, null))
                .isInstanceOf(Refuse.class);
    }

    @Test
    void a_resent_qos2_publish_skips_the_limits_and_is_only_acknowledged_again() {
        Facts f = new Facts();
        f.qos = 2;
        f.resentQos2 = true;
        assertThat(InboundPublishRules.checksLimits(f.build())).isFalse();
        assertThat(InboundPublishRules.afterLimits(f.build(), "a/b", null, UTF8))
                .isEqualTo(new Resent());
        f.resentQos2 = false;
        assertThat(InboundPublishRules.checksLimits(f.build())).isTrue();
    }

    @Test
    void a_payload_declared_utf8_must_be_utf8_in_mqtt5() {
        Facts f = new Facts();
        f.utf8Declared = true;
        assertThat(InboundPublishRules.afterLimits(f.build(), "a/b", null, UTF8))
                .isEqualTo(new Accept("a/b"));
        assertThat(InboundPublishRules.afterLimits(f.build(), "a/b", null, NOT_UTF8))
                .isInstanceOfSatisfying(
                        Refuse.class,
                        r -> assertThat(r.reason()).isEqualTo(MqttReasonCodes.PubAck.PAYLOAD_FORMAT_INVALID));
        f.qos = 0;
        assertThat(InboundPublishRules.afterLimits(f.build(), "a/b", null, NOT_UTF8))
                .isEqualTo(new Disconnect(
                        MqttReasonCodes.Disconnect.PAYLOAD_FORMAT_INVALID,
                        "payload_format",
                        "payload is not valid UTF-8"));
        f.qos = 2;
        f.resentQos2 = true;
        assertThat(InboundPublishRules.afterLimits(f.build(), "a/b", null, NOT_UTF8))
                .as("checked before the re-send")
                .isInstanceOf(Refuse.class);
    }
}
