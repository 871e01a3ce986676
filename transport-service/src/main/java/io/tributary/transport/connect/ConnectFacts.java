package io.tributary.transport.connect;

/**
 * What {@link ConnectRules} needs to know about one CONNECT and the node, read on the event loop before anything is
 * decided. Nothing here changes state.
 *
 * @param propertiesProblem    what is wrong with the MQTT 5 CONNECT properties, null when nothing (or MQTT 3.x)
 * @param authenticationMethod the MQTT 5 Authentication Method, null when absent
 * @param clientId             the client identifier as sent, empty when the client asks for one
 * @param willTopic            the will's topic, null without a will
 * @param nodeRegistered       this node's incarnation is registered with session-service
 * @param kafkaUnavailable     Kafka does not accept publishes now
 * @param warmUp               the connection is the node's own warm-up ({@link WarmUpMark})
 */
public record ConnectFacts(
        boolean mqtt5,
        String propertiesProblem,
        Object authenticationMethod,
        String clientId,
        boolean cleanStart,
        String willTopic,
        boolean nodeRegistered,
        boolean kafkaUnavailable,
        boolean warmUp) {}
