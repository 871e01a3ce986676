package io.tributary.transport.connection;

import io.tributary.sessionqueue.SessionQueueKeys;
import io.tributary.transport.alias.OutboundTopicAliases;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Our side of one connection's QoS flow: the QoS 1/2 messages we send the client and what it owes us for them.
 * <ul>
 * <li>in flight: sent, not yet fully acknowledged, by packet id; never more than the window, the client's Receive
 * Maximum capped by the node's own limit;</li>
 * <li>waiting: held in memory for a slot in the window or for the socket to drain, in delivery order;</li>
 * <li>the bytes of every message held (in flight plus waiting): they enter with the message and leave with it, so
 * the count is always the sum of what is held;</li>
 * <li>packet ids of messages that do not come from the session queue, allocated above the ids queue sequences use
 * ({@link SessionQueueKeys#QUEUE_PACKET_IDS}) and never one still in flight;</li>
 * <li>sequences of acknowledged session-queue messages not yet removed from the queue;</li>
 * <li>the topic aliases we assign (MQTT 5, when the client accepts them).</li>
 * </ul>
 * What to send, when to drop, and the handshakes themselves are {@code delivery.OutboundDelivery}'s.
 *
 * <p>Event-loop confined: every method runs on the connection's event loop, the only reader and writer, so nothing
 * here is locked. The one exception is the node's held-bytes sum (its gauge and its outbound budget), which reads
 * {@link #bytesHeld} from elsewhere and accepts a stale value.
 */
public final class OutboundFlow {

    /** Ids below belong to session-queue messages (derived from their sequence, see {@link SessionQueueKeys}). */
    static final int FIRST_OWN_PACKET_ID = SessionQueueKeys.QUEUE_PACKET_IDS + 1;

    static final int LAST_PACKET_ID = 65535;

    private final int clientReceiveMaximum;
    /** Aliases we assign to topics we deliver; null when the client accepts none. */
    private final OutboundTopicAliases aliases;
    /** Sent and not yet fully acknowledged, by packet id; created on first use (most connections never need it). */
    private Map<Integer, OutboundMessage> inFlight;

    private final ArrayDeque<OutboundMessage> waiting = new ArrayDeque<>(1); // grows when used; most stay empty
    private long bytesHeld;
    private int nextPacketId = FIRST_OWN_PACKET_ID;
    /** Sequences of acknowledged queued messages not yet removed from the session queue (one XDEL per loop turn). */
    private List<Long> acknowledgedSeqs = new ArrayList<>();

    /**
     * @param clientReceiveMaximum the Receive Maximum the client announced (65535 when it did not)
     * @param aliases              the aliases we may assign to this client, null for none
     */
    OutboundFlow(int clientReceiveMaximum, OutboundTopicAliases aliases) {
        this.clientReceiveMaximum = clientReceiveMaximum;
        this.aliases = aliases;
    }

    // --- window and what is held ---

    /** How many messages may be in flight: the client's Receive Maximum, capped by {@code maxInflight}. */
    public int window(int maxInflight) {
        return Math.min(maxInflight, clientReceiveMaximum);
    }

    /** Bytes of the QoS 1/2 messages held for this client: in flight plus waiting. */
    public long bytesHeld() {
        return bytesHeld;
    }

    public int inFlightCount() {
        return inFlight == null ? 0 : inFlight.size();
    }

    public int waitingCount() {
        return waiting.size();
    }

    /** Slots of the window not taken by messages in flight or waiting for one (negative when the window shrank). */
    public int freeSlots(int maxInflight) {
        return window(maxInflight) - inFlightCount() - waiting.size();
    }

    /** Whether a new message may go out now rather than wait: nothing waits before it and the window has room. */
    public boolean maySendNow(int maxInflight) {
        return waiting.isEmpty() && inFlightCount() < window(maxInflight);
    }

    /** Holds {@code message} until the window has room (counted in {@link #bytesHeld} from now). */
    public void await(OutboundMessage message) {
        waiting.addLast(message);
        bytesHeld += message.wireSize();
    }

    /** The message {@link #nextToSend} would return, left waiting (the caller may still hold it back). */
    public OutboundMessage peekNextToSend(int maxInflight) {
        if (waiting.isEmpty() || inFlightCount() >= window(maxInflight)) {
            return null;
        }
        return waiting.peekFirst();
    }

    /**
     * The oldest waiting message when the window has room for it, or null. It leaves the waiting queue (and the
     * bytes held) here: the caller puts it in flight or drops it.
     */
    public OutboundMessage nextToSend(int maxInflight) {
        if (waiting.isEmpty() || inFlightCount() >= window(maxInflight)) {
            return null;
        }
        OutboundMessage next = waiting.pollFirst();
        bytesHeld -= next.wireSize();
        return next;
    }

    // --- in flight ---

    /**
     * Puts {@code message} in flight with the next free packet id of our own, which it is given.
     *
     * @return the packet id, or -1 when every id of ours is in flight (the message is not held then)
     */
    public int launch(OutboundMessage message) {
        int packetId = allocatePacketId();
        if (packetId < 0) {
            return -1;
        }
        launch(message, packetId);
        return packetId;
    }

    /**
     * Puts {@code message} in flight with a packet id chosen by the caller (a session-queue message's id, derived from
     * its sequence, or the id of a PUBREL owed from an earlier connection). The caller checked the id is free; a
     * message still in flight under it is replaced and no longer held.
     */
    public void launch(OutboundMessage message, int packetId) {
        message.packetId(packetId);
        OutboundMessage replaced = inFlight().put(packetId, message);
        if (replaced != null) {
            bytesHeld -= replaced.wireSize();
        }
        bytesHeld += message.wireSize();
    }

    /** Whether a message with this packet id is in flight: a session-queue message with the same id must wait. */
    public boolean inFlight(int packetId) {
        return inFlight != null && inFlight.containsKey(packetId);
    }

    /** The message in flight with this packet id, or null; it stays in flight. */
    public OutboundMessage awaitingAck(int packetId) {
        return inFlight == null ? null : inFlight.get(packetId);
    }

    /**
     * The exchange of the message with this packet id is over (acknowledged, or refused by the client): it leaves the
     * window and the bytes held, and its packet id is free again.
     *
     * @return the message, or null when none was in flight with this id
     */
    public OutboundMessage acknowledge(int packetId) {
        OutboundMessage message = inFlight == null ? null : inFlight.remove(packetId);
        if (message != null) {
            bytesHeld -= message.wireSize();
        }
        return message;
    }

    /** Messages in flight or waiting: never delivered, when the connection closes now. */
    public int undelivered() {
        return inFlightCount() + waiting.size();
    }

    private Map<Integer, OutboundMessage> inFlight() {
        if (inFlight == null) {
            inFlight = new HashMap<>();
        }
        return inFlight;
    }

    /** Next free packet id of our own, round robin, skipping ids in flight; -1 when all are in use. */
    private int allocatePacketId() {
        for (int i = FIRST_OWN_PACKET_ID; i <= LAST_PACKET_ID; i++) {
            int id = nextPacketId;
            nextPacketId = nextPacketId == LAST_PACKET_ID ? FIRST_OWN_PACKET_ID : nextPacketId + 1;
            if (!inFlight(id)) {
                return id;
            }
        }
        return -1;
    }

    // --- session-queue acknowledgements ---

    /**
     * A message of the session queue was acknowledged; its entry is removed with the others of the same event-loop
     * turn.
     *
     * @return true for the first of a turn: the caller schedules their removal
     */
    public boolean queueEntryAcknowledged(long seq) {
        boolean first = acknowledgedSeqs.isEmpty();
        acknowledgedSeqs.add(seq);
        return first;
    }

    /** The sequences gathered since the last call, in acknowledgement order; the next turn starts empty. */
    public List<Long> takeAcknowledgedQueueEntries() {
        List<Long> taken = acknowledgedSeqs;
        acknowledgedSeqs = new ArrayList<>();
        return taken;
    }

    // --- topic aliases (MQTT 5) ---

    /** How {@code topic} would be named now (alias, with or without the topic), or null when we assign no aliases. */
    public OutboundTopicAliases.Use peekAlias(String topic) {
        return aliases == null ? null : aliases.peek(topic);
    }

    /** Assigns (or reuses) the alias of {@code topic}, at the write of the PUBLISH that carries it. */
    public void useAlias(String topic) {
        aliases.use(topic);
    }
}
