package io.tributary.transport.connection;

import io.netty.channel.Channel;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.tributary.transport.alias.InboundTopicAliases;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * The client's side of one connection's QoS flow: what we owe it for the publishes it sends us.
 * <ul>
 * <li>acknowledgements (PUBACK / PUBREC) written in the order the publishes arrived (MQTT 3.1.1 section 4.6), however
 * Kafka orders its answers ({@link InboundAcks});</li>
 * <li>QoS 2 packet ids answered (or to be answered) with PUBREC and awaiting PUBREL, so a re-sent PUBLISH is not
 * produced again (MQTT 4.3.3), and the persistent session's incarnation that keys them in Kafka;</li>
 * <li>the Receive Maximum we announce in CONNACK (MQTT 5 section 3.2.2.3.3, {@code MQTT_RECEIVE_MAXIMUM}) and hold
 * every client to (section 4.9): a QoS 1 publish counts until its PUBACK is written, a QoS 2 publish until PUBREL
 * (or a PUBREC with a failure code);</li>
 * <li>the topic aliases the client defined (MQTT 5 only).</li>
 * </ul>
 *
 * <p>Event-loop confined: every method runs on the connection's event loop, which is the only writer and reader, so
 * nothing here is locked. Callers on other threads (Kafka's producer, Redis) hop back to the loop first.
 */
public final class InboundFlow {

    private final Channel channel;
    private final boolean mqtt5;
    private final InboundAcks acks = new InboundAcks();
    /** Inbound QoS 2 packet ids acknowledged with PUBREC, awaiting PUBREL; created on first use (most have none). */
    private Set<Integer> awaitingRelease;
    /** When session-service created the persistent session (exactly-once QoS 2 keys); null when not read. */
    private String qos2Incarnation;
    /** Aliases the client defined for its publishes; null for MQTT 3.x, which has none. */
    private final InboundTopicAliases aliases;

    InboundFlow(Channel channel, boolean mqtt5, InboundTopicAliases aliases) {
        this.channel = channel;
        this.mqtt5 = mqtt5;
        this.aliases = aliases;
    }

    // --- acknowledgements in arrival order ---

    /** Reserves the acknowledgement of a QoS 1/2 publish now, in arrival order; settle it with {@link #acknowledge}. */
    public InboundAcks.Slot expectAck(int packetId, int qos) {
        return acks.expect(packetId, qos);
    }

    /** The publish behind {@code slot} is stored: acknowledge it once every earlier publish is acknowledged too. */
    public void acknowledge(InboundAcks.Slot slot) {
        acks.complete(slot, (byte) 0, MqttProperties.NO_PROPERTIES, channel, mqtt5);
    }

    /**
     * The publish behind {@code slot} is settled with {@code reasonCode} (a refusal, in MQTT 5): its PUBACK / PUBREC
     * goes out in arrival order, never overtaking earlier publishes still waiting for Kafka.
     */
    public void acknowledge(InboundAcks.Slot slot, byte reasonCode, MqttProperties properties) {
        acks.complete(slot, reasonCode, properties, channel, mqtt5);
    }

    /** A publish settled on arrival (refused, or acknowledged and dropped): answered behind the earlier ones. */
    public void acknowledgeInOrder(int packetId, int qos, byte reasonCode, MqttProperties properties) {
        acknowledge(expectAck(packetId, qos), reasonCode, properties);
    }

    /** True while a QoS 2 publish with this id is waiting for Kafka: its PUBREC is not written yet. */
    public boolean storing(int packetId) {
        return acks.awaiting(packetId);
    }

    // --- QoS 2 packet ids between PUBLISH and PUBREL ---

    /** Whether a QoS 2 publish with this id was taken and its PUBREL has not come: a PUBLISH with it is a re-send. */
    public boolean awaitingRelease(int packetId) {
        return awaitingRelease != null && awaitingRelease.contains(packetId);
    }

    /** A new QoS 2 publish with this id is taken; false when the id is open already (a re-send). */
    public boolean openQos2(int packetId) {
        if (awaitingRelease == null) {
            awaitingRelease = new HashSet<>();
        }
        return awaitingRelease.add(packetId);
    }

    /** PUBREL came, or the publish was not stored after all: the id is free again. False when it was not open. */
    public boolean releaseQos2(int packetId) {
        return awaitingRelease != null && awaitingRelease.remove(packetId);
    }

    /** The ids a resumed persistent session answered with PUBREC over an earlier connection (read at CONNECT). */
    public void restoreQos2(Collection<Integer> packetIds) {
        if (packetIds.isEmpty()) {
            return;
        }
        if (awaitingRelease == null) {
            awaitingRelease = new HashSet<>();
        }
        awaitingRelease.addAll(packetIds);
    }

    /** When session-service created the persistent session; null when not read (exactly-once QoS 2 is off). */
    public String qos2Incarnation() {
        return qos2Incarnation;
    }

    public void qos2Incarnation(String incarnation) {
        this.qos2Incarnation = incarnation;
    }

    // --- Receive Maximum ---

    /**
     * Open inbound QoS 1/2 exchanges: QoS 1 waiting for PUBACK, and QoS 2 packet ids between PUBLISH and PUBREL
     * (those also waiting for Kafka are among them). QoS 2 publishes refused without an id kept (MQTT 5 0x87, 0x97)
     * are only counted while their PUBREC waits behind earlier ones, which is momentary, so they are left out.
     */
    public int openExchanges() {
        return acks.pendingQos1() + (awaitingRelease == null ? 0 : awaitingRelease.size());
    }

    /**
     * Whether this PUBLISH would open one exchange more than {@code receiveMaximum}; QoS 0 and a re-sent QoS 2
     * publish open nothing new.
     */
    public boolean exceedsReceiveMaximum(int qos, int packetId, int receiveMaximum) {
        if (qos == 0 || (qos == 2 && awaitingRelease(packetId))) {
            return false;
        }
        return openExchanges() >= receiveMaximum;
    }

    // --- topic aliases (MQTT 5) ---

    /** Whether the client may define topic aliases: false for MQTT 3.x. */
    public boolean hasAliases() {
        return aliases != null;
    }

    /**
     * The topic a PUBLISH names, through its alias if it has one (MQTT 5 section 3.3.2.3.4). Nothing is defined here:
     * {@link #defineAlias} does that once the topic is known to be valid. MQTT 5 only.
     */
    public InboundTopicAliases.Resolution resolveTopic(String topic, Integer alias) {
        return aliases.resolve(topic, alias);
    }

    /** A PUBLISH with a topic name and an alias (re)defines the alias. MQTT 5 only. */
    public void defineAlias(int alias, String topic) {
        aliases.define(alias, topic);
    }
}
