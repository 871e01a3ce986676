package io.tributary.transport.connection;

import io.netty.handler.codec.mqtt.MqttProperties;
import io.tributary.common.tenant.TenantTopics;

/**
 * One message on its way to one subscriber, kept while it waits for an in-flight slot or for the subscriber's
 * acknowledgement. {@code released} turns true once a QoS 2 message has been answered with PUBREC and PUBREL sent.
 * {@code properties} are shared by every subscriber of the record and never modified; what differs per subscriber
 * (subscription identifiers, topic alias) is added when the packet is written.
 */
public final class OutboundMessage {

    private static final int[] NO_SUBSCRIPTION_IDS = new int[0];

    private final String topic;
    /** The name the subscriber knows: {@code topic} without a tenant's {@code $tenant/<id>/} prefix. */
    private final String clientTopic;

    private final byte[] payload;
    private final int qos;
    private final boolean retain;
    private final MqttProperties properties;
    private final int[] subscriptionIds;
    private final long wireSize;
    /** UTF-8 bytes of the topic name, and of the MQTT 5 properties written for every subscriber of this copy. */
    private final int topicBytes;

    private final int propertyBytes;
    private int packetId;
    private boolean released;
    /** Sequence in the session queue this message came from; 0 when it did not come from one. */
    private long queueSeq;
    /** Sent with DUP = 1: it may have reached the client before (over an earlier connection). */
    private boolean duplicate;
    /** Held back once already for its tenant's delivery quota (counted once). */
    private boolean quotaDelayed;

    public OutboundMessage(String topic, byte[] payload, int qos, boolean retain, MqttProperties properties) {
        this(topic, payload, qos, retain, properties, NO_SUBSCRIPTION_IDS);
    }

    /** @param subscriptionIds identifiers of the subscriber's subscriptions that matched (MQTT 5 section 3.3.4) */
    public OutboundMessage(
            String topic, byte[] payload, int qos, boolean retain, MqttProperties properties, int[] subscriptionIds) {
        this.topic = topic;
        this.clientTopic = TenantTopics.visible(topic);
        this.payload = payload;
        this.qos = qos;
        this.retain = retain;
        this.properties = properties;
        this.subscriptionIds = subscriptionIds;
        this.topicBytes = PublishWireSize.utf8Length(clientTopic);
        int length = PublishWireSize.propertiesLength(properties);
        for (int id : subscriptionIds) {
            length += 1 + PublishWireSize.varIntSize(id);
        }
        this.propertyBytes = length;
        this.wireSize = PublishWireSize.packet(topicBytes, qos, propertyBytes, payload.length);
    }

    /**
     * Bytes of this PUBLISH as an MQTT 5 client gets it with its full topic name and no topic alias: what the memory
     * held per subscriber is counted in. The exact size for one connection is {@link #encodedSize}.
     */
    public long wireSize() {
        return wireSize;
    }

    /**
     * Exact bytes of this PUBLISH as written to one connection.
     *
     * @param mqtt5          false for MQTT 3.x (no properties on the wire)
     * @param topicOnWire    the topic name written: empty when a known topic alias stands for it
     * @param withTopicAlias whether a Topic Alias property is added (3 bytes)
     */
    public long encodedSize(boolean mqtt5, String topicOnWire, boolean withTopicAlias) {
        int topicLength = topicOnWire.isEmpty()
                ? 0
                : topicOnWire.equals(clientTopic) ? topicBytes : PublishWireSize.utf8Length(topicOnWire);
        int props = mqtt5 ? propertyBytes + (withTopicAlias ? 3 : 0) : -1;
        return PublishWireSize.packet(topicLength, qos, props, payload.length);
    }

    /** The internal topic name, as routed and matched (replay seams, the node's subscriptions). */
    public String topic() {
        return topic;
    }

    /** The topic name written to the subscriber (and what its topic aliases stand for). */
    public String clientTopic() {
        return clientTopic;
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

    /** Marks this message as held back for its tenant's delivery quota; true the first time only. */
    public boolean markQuotaDelayed() {
        if (quotaDelayed) {
            return false;
        }
        quotaDelayed = true;
        return true;
    }
}
