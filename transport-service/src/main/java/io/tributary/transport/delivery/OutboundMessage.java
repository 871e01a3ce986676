package io.tributary.transport.delivery;

import java.nio.charset.StandardCharsets;

import io.netty.handler.codec.mqtt.MqttProperties;

/**
 * One message on its way to one subscriber, kept while it waits for an in-flight slot or for the subscriber's
 * acknowledgement. {@code released} turns true once a QoS 2 message has been answered with PUBREC and PUBREL sent.
 * {@code properties} are shared by every subscriber of the record and never modified; what differs per subscriber
 * (subscription identifiers, topic alias) is added when the packet is written.
 */
public final class OutboundMessage {

    private static final int[] NO_SUBSCRIPTION_IDS = new int[0];

    private final String topic;
    private final byte[] payload;
    private final int qos;
    private final boolean retain;
    private final MqttProperties properties;
    private final int[] subscriptionIds;
    private final long wireSize;
    private int packetId;
    private boolean released;
    /** Sequence in the session queue this message came from; 0 when it did not come from one. */
    private long queueSeq;
    /** Sent with DUP = 1: it may have reached the client before (over an earlier connection). */
    private boolean duplicate;

    public OutboundMessage(String topic, byte[] payload, int qos, boolean retain, MqttProperties properties) {
        this(topic, payload, qos, retain, properties, NO_SUBSCRIPTION_IDS);
    }

    /** @param subscriptionIds identifiers of the subscriber's subscriptions that matched (MQTT 5 section 3.3.4) */
    public OutboundMessage(String topic, byte[] payload, int qos, boolean retain, MqttProperties properties,
            int[] subscriptionIds) {
        this.topic = topic;
        this.payload = payload;
        this.qos = qos;
        this.retain = retain;
        this.properties = properties;
        this.subscriptionIds = subscriptionIds;
        // Fixed header (at most 5) + topic length prefix and bytes + packet id + payload; properties are small
        // next to the limits that matter, so they are estimated generously.
        this.wireSize = 5 + 2 + topic.getBytes(StandardCharsets.UTF_8).length + 2 + payload.length
                + (properties == null ? 0 : 64) + 5L * subscriptionIds.length;
    }

    /** Upper estimate of the encoded PUBLISH, in bytes: what the size and memory limits are checked against. */
    public long wireSize() {
        return wireSize;
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

    public int[] subscriptionIds() {
        return subscriptionIds;
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

    public long queueSeq() {
        return queueSeq;
    }

    public boolean fromQueue() {
        return queueSeq != 0;
    }

    public void queueSeq(long seq) {
        this.queueSeq = seq;
    }

    public boolean duplicate() {
        return duplicate;
    }

    public void markDuplicate() {
        this.duplicate = true;
    }
}
