package io.tributary.perf.client;

/**
 * The one switch all publishers read before each send: warm-up messages are delivered but not measured, measured
 * ones count, and once closed nobody publishes any more.
 */
public final class PublishGate {

    public enum State {
        WARM_UP,
        MEASURE,
        CLOSED
    }

    private volatile State state = State.WARM_UP;

    public State state() {
        return state;
    }

    public void set(State newState) {
        state = newState;
    }
}
