package io.tributary.sessionqueue;

import java.nio.charset.StandardCharsets;

/**
 * Where a persistent session's queue lives in Redis, shared by its writer (routing-service, {@link QueueAppender}),
 * its reader (transport-service, {@link QueueReader}) and its owner (session-service, {@link QueueAdmin}, which
 * creates and deletes it with the session). Only this module touches these keys; its Lua scripts are next to it
 * ({@link LuaScript}).
 *
 * <p>Per client id {@code c}, four keys with the hash tag {@code {c}}, so they share one Redis Cluster slot and the
 * scripts that touch several of them stay atomic:
 * <ul>
 *   <li>{@link #queue} — a stream of the QoS 1/2 messages not yet acknowledged by the client, entry id
 *       {@code 0-<seq>}: {@code seq} counts per client from 1 and never repeats while the session lives;</li>
 *   <li>{@link #meta} — a hash: {@link #SEQ} (last sequence handed out), {@link #SENT} (highest sequence ever
 *       fetched for sending: an entry at or below it may have reached the client, so it is re-sent with DUP = 1),
 *       {@link #DROPPED} (messages dropped by the queue limit or the byte budget), {@link #BYTES} (the bytes the
 *       entries hold, queue and hold stream), {@link #CREATED} (present while the session is
 *       persistent: a queue is only written while it exists), and one field {@code p<partition>} per publish partition
 *       holding the last publish offset appended (a router that routes a batch again appends nothing twice);</li>
 *   <li>{@link #released} — a set of packet ids of QoS 2 messages the client acknowledged with PUBREC: their PUBREL
 *       is re-sent when the client reconnects, the message never again;</li>
 *   <li>{@link #inboundQos2} — a set of packet ids of QoS 2 PUBLISHes <em>from</em> the client that were stored in
 *       Kafka and answered with PUBREC, until its PUBREL: a PUBLISH re-sent with one of them after a reconnect (on
 *       any node) is acknowledged again, not stored twice (MQTT 4.3.3). Written by the transport node before PUBREC,
 *       only while {@link #CREATED} is set.</li>
 * </ul>
 * and, while a replay joins history to the queue ({@link QueueHold}), three more: {@link #hold} (the replay's token,
 * with a time to live), {@link #held} (a stream of the entries routed meanwhile, moved behind the history when the
 * hold ends) and {@link #covered} (publish position to {@code q<seq>}, an entry waiting in the queue at hold time, or
 * {@code h<token>}, put there by a replay's history: kept a while after the hold, so that a router lagging behind the
 * replay appends none of them again).
 */
public final class SessionQueueKeys {

    public static final String SEQ = "seq";
    public static final String SENT = "sent";
    public static final String DROPPED = "dropped";
    public static final String CREATED = "created";
    /**
     * Bytes of the entries in the queue and hold streams (their fields' names and values), kept by every script that
     * adds or removes entries; what the byte budget is checked against. Missing in a queue from before the budget,
     * until its next append counts it from the entries.
     */
    public static final String BYTES = "bytes";

    /** Stream entry fields. */
    public static final String FIELD_TOPIC = "t";

    public static final String FIELD_PAYLOAD = "p";
    public static final String FIELD_HEADERS = "h";
    /** The publish record's position, {@code <partition>:<offset>}: what joins a replay's history to the queue. */
    public static final String FIELD_POSITION = "s";
    /** The full {@code $share/g/f} filter when a share group chose this session for the message; absent otherwise. */
    public static final String FIELD_SHARED = "g";

    /**
     * Packet ids {@code 1..QUEUE_PACKET_IDS} belong to queued messages: the id is a function of the sequence, so a
     * message re-sent after a reconnect carries its original packet id (MQTT 3.1.1 section 4.4) and a QoS 2 receiver
     * can recognise it. Other outbound QoS 1/2 messages use the ids above.
     */
    public static final int QUEUE_PACKET_IDS = 32767;

    private SessionQueueKeys() {}

    public static String queue(String clientId) {
        return "tributary:queue:{" + clientId + "}";
    }

    public static String meta(String clientId) {
        return "tributary:queue-meta:{" + clientId + "}";
    }

    public static String released(String clientId) {
        return "tributary:queue-rel:{" + clientId + "}";
    }

    public static String inboundQos2(String clientId) {
        return "tributary:qos2-in:{" + clientId + "}";
    }

    public static String hold(String clientId) {
        return "tributary:queue-hold:{" + clientId + "}";
    }

    public static String held(String clientId) {
        return "tributary:queue-held:{" + clientId + "}";
    }

    public static String covered(String clientId) {
        return "tributary:queue-covered:{" + clientId + "}";
    }

    /** The {@link #FIELD_POSITION} of a publish record. */
    public static String position(int partition, long offset) {
        return partition + ":" + offset;
    }

    public static byte[] bytes(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }

    /** Stream entry id of sequence {@code seq}. */
    public static String entryId(long seq) {
        return "0-" + seq;
    }

    /** Sequence of a stream entry id written by {@link #entryId}. */
    public static long seqOf(String entryId) {
        int dash = entryId.indexOf('-');
        return Long.parseLong(dash < 0 ? entryId : entryId.substring(dash + 1));
    }

    /** The packet id a queued message is always sent with. */
    public static int packetIdOf(long seq) {
        return (int) ((seq - 1) % QUEUE_PACKET_IDS) + 1;
    }

    public static boolean isQueuePacketId(int packetId) {
        return packetId >= 1 && packetId <= QUEUE_PACKET_IDS;
    }

    /** Meta field holding the last offset of publish partition {@code partition} appended to this queue. */
    public static String partitionField(int partition) {
        return "p" + partition;
    }
}
