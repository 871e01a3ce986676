package io.tributary.sessionqueue;

/** What happens when a message arrives for a session queue already holding its limit. Every drop is counted. */
public enum QueueFullPolicy {
    /** The oldest queued messages make room: a client that comes back gets the most recent ones. */
    DROP_OLDEST("oldest"),
    /** The new message is refused: a client that comes back gets the first ones, in order, without a gap inside. */
    DROP_NEWEST("newest");

    private final String scriptArgument;

    QueueFullPolicy(String scriptArgument) {
        this.scriptArgument = scriptArgument;
    }

    String scriptArgument() {
        return scriptArgument;
    }
}
