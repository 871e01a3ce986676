package io.tributary.transport.delivery;

import io.netty.handler.codec.mqtt.MqttProperties;
import io.tributary.transport.alias.OutboundTopicAliases;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.OutboundMessage;

/**
 * How a PUBLISH names its topic on one connection: the topic name written and the alias added (0 = none).
 * Everything here runs on the connection's event loop.
 */
record Wire(String topicOnWire, int alias) {

    /**
     * How {@code message} is written to {@code connection} now, or null when even its smallest form is above the
     * client's Maximum Packet Size. The topic alias the connection would use comes first; when the 3 bytes of its
     * property are what tips the packet over, it goes without alias (aliases are optional for the sender). Nothing is
     * assigned here: the write assigns, right after this on the same event loop task, so the choice holds.
     */
    static Wire of(ClientConnection connection, OutboundMessage message) {
        long maximum = connection.clientMaximumPacketSize();
        boolean v5 = connection.isMqtt5();
        String topic = message.clientTopic();
        OutboundTopicAliases.Use use = v5 ? connection.outbound().peekAlias(topic) : null;
        if (use != null) {
            if (use.alias() != 0 && message.encodedSize(true, use.topicOnWire(), true) <= maximum) {
                return new Wire(use.topicOnWire(), use.alias());
            }
        }
        return message.encodedSize(v5, topic, false) <= maximum ? new Wire(topic, 0) : null;
    }

    /** The record's properties plus this subscriber's own: subscription identifiers and topic alias. */
    static MqttProperties properties(OutboundMessage message, int alias) {
        MqttProperties shared = message.properties() == null ? MqttProperties.NO_PROPERTIES : message.properties();
        if (alias == 0 && message.subscriptionIds().length == 0) {
            return shared;
        }
        MqttProperties own = new MqttProperties();
        for (MqttProperties.MqttProperty<?> p : shared.listAll()) {
            own.add(p);
        }
        for (int id : message.subscriptionIds()) {
            own.add(new MqttProperties.IntegerProperty(MqttProperties.SUBSCRIPTION_IDENTIFIER, id));
        }
        if (alias != 0) {
            own.add(new MqttProperties.IntegerProperty(MqttProperties.TOPIC_ALIAS, alias));
        }
        return own;
    }
}
