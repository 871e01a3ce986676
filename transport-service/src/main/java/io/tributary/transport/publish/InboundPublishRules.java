package io.tributary.transport.publish;

import io.netty.handler.codec.mqtt.MqttReasonCodes;
import io.tributary.common.sys.SysTopics;
import io.tributary.common.tenant.TenantTopics;
import io.tributary.common.topic.TopicFilters;
import io.tributary.transport.limits.ClientLimits;
import io.tributary.transport.publish.PublishVerdict.Accept;
import io.tributary.transport.publish.PublishVerdict.Disconnect;
import io.tributary.transport.publish.PublishVerdict.Refusal;
import io.tributary.transport.publish.PublishVerdict.Refuse;
import io.tributary.transport.publish.PublishVerdict.Resent;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The protocol decisions on an inbound PUBLISH, as pure functions of {@link PublishFacts}: no I/O, no state. In two
 * steps, because the node's limits in between ({@link ClientLimits#checkPublish}) take a token of the client's rate
 * and count what they refuse, so they run only for a PUBLISH the protocol admits:
 * <ol>
 * <li>{@link #admit}: Subscription Identifier, topic alias, topic name, Receive Maximum, {@code $SYS}, the
 * reserved {@code $tenant} namespace and the ACL;</li>
 * <li>{@link #afterLimits}: the limits' answer, the payload format, QoS 2 re-sends.</li>
 * </ol>
 */
public final class InboundPublishRules {

    /**
     * The first step's verdict, and the topic alias the PUBLISH (re)defines: a valid topic name with an alias binds
     * it whatever happens next (0 = none).
     */
    public record Admission(PublishVerdict verdict, int aliasToDefine) {}

    private InboundPublishRules() {}

    /**
     * Step one. {@link Accept} means: go on to the limits ({@link #checksLimits}) and {@link #afterLimits}.
     */
    public static Admission admit(PublishFacts f) {
        if (f.mqtt5() && f.hasSubscriptionIdentifier()) {
            // MQTT 5 section 3.3.4: only the server puts subscription identifiers on a PUBLISH.
            return new Admission(
                    new Disconnect(
                            MqttReasonCodes.Disconnect.PROTOCOL_ERROR,
                            "protocol_error",
                            "PUBLISH from a client with a Subscription Identifier"),
                    0);
        }
        if (f.mqtt5() && f.propertiesProblem() != null) {
            // Not forwarded, so no subscriber's client closes on it (MessagePropertyCheck).
            boolean malformed = f.propertiesProblem().malformed();
            return new Admission(
                    new Disconnect(
                            malformed
                                    ? MqttReasonCodes.Disconnect.MALFORMED_PACKET
                                    : MqttReasonCodes.Disconnect.PROTOCOL_ERROR,
                            malformed ? "malformed_packet" : "protocol_error",
                            "PUBLISH with " + f.propertiesProblem().text()),
                    0);
        }
        String topic = f.topicName();
        if (f.mqtt5()) {
            if (f.resolution().failed()) {
                MqttReasonCodes.Disconnect reason =
                        MqttReasonCodes.Disconnect.valueOf(f.resolution().reasonCode());
                return new Admission(
                        new Disconnect(
                                reason,
                                reason == MqttReasonCodes.Disconnect.TOPIC_ALIAS_INVALID
                                        ? "topic_alias_invalid"
                                        : "protocol_error",
                                f.resolution().problem()),
                        0);
            }
            topic = f.resolution().topic();
        }
        String problem = TopicFilters.topicNameProblem(topic);
        if (problem != null) {
            return new Admission(
                    new Disconnect(
                            MqttReasonCodes.Disconnect.TOPIC_NAME_INVALID, "invalid_topic", "PUBLISH " + problem),
                    0);
        }
        int aliasToDefine = f.alias() != null && !f.topicName().isEmpty() ? f.alias() : 0;
        return new Admission(admitValid(f, topic), aliasToDefine);
    }

    private static PublishVerdict admitValid(PublishFacts f, String topic) {
        if (f.receiveMaximumExceeded()) {
            // MQTT 5 section 4.9; an MQTT 3.x client is closed alike (it has no such limit in its protocol, but one
            // connection must not make the node keep unbounded QoS 2 state).
            return new Disconnect(
                    MqttReasonCodes.Disconnect.RECEIVE_MAXIMUM_EXCEEDED,
                    "receive_maximum",
                    "more than " + f.receiveMaximum() + " unacknowledged QoS 1/2 publishes");
        }
        if (SysTopics.isSys(topic)) {
            // MQTT 5 section 4.7.2: clients should not exchange messages on $ topics. MQTT 3.x cannot refuse a
            // PUBLISH except by closing (3.1.1 section 3.3.5): acknowledged and dropped, as Mosquitto does.
            return new Refuse(
                    Refusal.SYS_TOPIC,
                    topic,
                    refusedWith(f, MqttReasonCodes.PubAck.NOT_AUTHORIZED),
                    "clients may not publish to " + topic,
                    false);
        }
        if (TenantTopics.isReserved(topic) || !f.permissions().mayPublish(topic)) {
            // $tenant/... is where tenants' namespaces are mounted: no client names it, whatever its ACL says.
            // MQTT 3.x: acknowledged as usual and dropped (3.1.1 section 3.3.5 allows exactly that), so the QoS 2
            // packet id awaits its PUBREL as usual. MQTT 5: a failed PUBREC ends the exchange.
            return new Refuse(
                    Refusal.NOT_AUTHORIZED,
                    topic,
                    refusedWith(f, MqttReasonCodes.PubAck.NOT_AUTHORIZED),
                    "not authorized to publish to '" + topic + "'",
                    f.qos() == 2 && !f.mqtt5());
        }
        return new Accept(topic);
    }

    /** Whether the node's limits apply: a re-sent QoS 2 PUBLISH stored once already is acknowledged whatever. */
    public static boolean checksLimits(PublishFacts f) {
        return !(f.qos() == 2 && f.resentQos2());
    }

    /**
     * Step two, for a PUBLISH {@link #admit} accepted under {@code topic}.
     *
     * @param limited the limits' refusal, null when within them (or not checked)
     * @param payload the payload's bytes
     */
    public static PublishVerdict afterLimits(
            PublishFacts f, String topic, ClientLimits.Refusal limited, byte[] payload) {
        if (limited != null) {
            if (f.qos() != 0 && !f.mqtt5()) {
                // MQTT 3.x has no negative acknowledgement, and a normal one would say a dropped message was stored:
                // closed instead (3.1.1 section 3.3.5), so the client sends it again after reconnecting.
                return new Disconnect(MqttReasonCodes.Disconnect.valueOf(limited.code()), null, limited.cause());
            }
            return new Refuse(
                    Refusal.OVER_LIMIT, topic, MqttReasonCodes.PubAck.valueOf(limited.code()), limited.cause(), false);
        }
        if (f.mqtt5() && f.utf8Declared() && !validUtf8(payload)) {
            // MQTT 5 section 3.3.2.3.2: payload format indicator 1 promises UTF-8.
            return f.qos() == 0
                    ? new Disconnect(
                            MqttReasonCodes.Disconnect.PAYLOAD_FORMAT_INVALID,
                            "payload_format",
                            "payload is not valid UTF-8")
                    : new Refuse(
                            Refusal.PAYLOAD_FORMAT,
                            topic,
                            MqttReasonCodes.PubAck.PAYLOAD_FORMAT_INVALID,
                            "payload format indicator is 1 but the payload is not valid UTF-8",
                            false);
        }
        if (f.qos() == 2 && f.resentQos2()) {
            return new Resent();
        }
        return new Accept(topic);
    }

    /** MQTT 5 refuses with {@code reason}; MQTT 3.x can only acknowledge (and drop). */
    private static MqttReasonCodes.PubAck refusedWith(PublishFacts f, MqttReasonCodes.PubAck reason) {
        return f.mqtt5() ? reason : MqttReasonCodes.PubAck.SUCCESS;
    }

    static boolean validUtf8(byte[] bytes) {
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
