package io.tributary.transport.connection;

/**
 * A replay's seam with live traffic, kept by the connection it replays to while the seam still applies: live
 * deliveries it covers are held behind the history or dropped as copies of it. The replay package implements it;
 * the connection only keeps the seams, so delivery can see that a connection replays without depending on replays.
 * Event loop only.
 */
public interface LiveSeam {

    /** What to do with a live delivery. */
    enum Verdict {
        PASS,
        HOLD,
        DROP
    }

    /** What becomes of a live delivery on {@code topic} at publish {@code partition} / {@code offset} (-1: unknown). */
    Verdict onLive(String topic, int partition, long offset);

    /** Holds a live delivery until the history is delivered. */
    void hold(OutboundMessage message, int partition, long offset);

    /** Live deliveries held. */
    int held();

    /** The next message to send, without taking it; null when none (and, once the history is read, done). */
    OutboundMessage peek();

    /** Takes the message {@link #peek} gave. */
    void take();

    /** Whether all of the history and every held delivery went out. */
    boolean done();

    /** The subscription to {@code filter} ended or was replaced; true when the seam no longer applies at all. */
    boolean forget(String filter);
}
