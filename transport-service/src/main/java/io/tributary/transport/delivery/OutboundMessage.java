package io.tributary.transport.delivery;

import io.netty.handler.codec.mqtt.MqttProperties;

/**
 * One message on its way to one subscriber, kept while it waits for an in-flight slot or for the subscriber's
 * acknowledgement. {@code released} turns true once a QoS 2 message has been answered with PUBREC and PUBREL sent.
 */
public final class OutboundMessage {

    private final String topic;
    private final byte[] payload;
    private final int qos;
    private final boolean retain;
    private final MqttProperties properties;
    private int packetId;
    private boolean released;

    public OutboundMessage(String topic, byte[] payload, int qos, boolean retain, MqttProperties properties) {
        this.topic = topic;
        this.payload = payload;
        this.qos = qos;
        this.retain = retain;
        this.properties = properties;
    }

    public String topic() {
        return topic;
    }

    public byte[] payload() {
        return payload;
    }

    public int qos() {
        return qos;
    }

    public boolean retain() {
        return retain;
    }

    public MqttProperties properties() {
        return properties;
    }

    public int packetId() {
        return packetId;
    }

    public void packetId(int packetId) {
        this.packetId = packetId;
    }

    public boolean released() {
        return released;
    }

    public void markReleased() {
        this.released = true;
    }
}
