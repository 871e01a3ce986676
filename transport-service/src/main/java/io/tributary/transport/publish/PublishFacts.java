package io.tributary.transport.publish;

import io.tributary.common.acl.TopicPermissions;
import io.tributary.transport.alias.InboundTopicAliases;
import io.tributary.transport.connection.MessagePropertyCheck;

/**
 * What {@link InboundPublishRules} needs to know about one inbound PUBLISH and the state of its connection, read on
 * the event loop before anything is decided. Nothing here changes state.
 *
 * @param topicName                 the topic name as sent (empty when the PUBLISH uses only an alias)
 * @param alias                     the Topic Alias property, null when absent (always null for MQTT 3.x)
 * @param hasSubscriptionIdentifier the PUBLISH carries a Subscription Identifier, which only servers may send
 * @param propertiesProblem         what is wrong with the properties it carries ({@code MessagePropertyCheck}), null
 *                                  when nothing (always null for MQTT 3.x)
 * @param utf8Declared              Payload Format Indicator 1 (MQTT 5)
 * @param resolution                the topic through the connection's aliases; null for MQTT 3.x
 * @param receiveMaximumExceeded    this PUBLISH would open one QoS 1/2 exchange more than {@code receiveMaximum}
 * @param resentQos2                a QoS 2 PUBLISH whose packet id awaits PUBREL: a re-send
 */
public record PublishFacts(
        boolean mqtt5,
        int qos,
        int packetId,
        String topicName,
        Integer alias,
        boolean hasSubscriptionIdentifier,
        MessagePropertyCheck.Problem propertiesProblem,
        boolean utf8Declared,
        InboundTopicAliases.Resolution resolution,
        boolean receiveMaximumExceeded,
        int receiveMaximum,
        TopicPermissions permissions,
        boolean resentQos2) {}
