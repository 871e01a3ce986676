package io.tributary.routing.loop;

import java.time.Clock;
import java.time.Instant;
import org.springframework.stereotype.Component;

/**
 * What the routing loop is doing, for the health endpoint. Written by the loop thread, read by HTTP threads.
 */
@Component
public class RoutingStatus {

    public enum State {
        /** Creating or checking topics, joining the group. */
        STARTING,
        /** Routing (with zero or more owned partitions). */
        RUNNING,
        /** A Kafka operation failed; waiting before trying again. */
        RETRYING,
        /** The service is shutting down. */
        STOPPED
    }

    /** An immutable view of the status. */
    public record Snapshot(
            State state,
            Instant since,
            String lastError,
            Instant lastErrorAt,
            Instant lastBatchAt,
            long batchesRouted) {}

    private final Clock clock;
    private volatile Snapshot snapshot;

    public RoutingStatus(Clock clock) {
        this.clock = clock;
        this.snapshot = new Snapshot(State.STARTING, clock.instant(), null, null, null, 0);
    }

    public Snapshot snapshot() {
        return snapshot;
    }

    synchronized void enter(State state) {
        Snapshot s = snapshot;
        if (s.state() != state) {
            snapshot = new Snapshot(
                    state, clock.instant(), s.lastError(), s.lastErrorAt(), s.lastBatchAt(), s.batchesRouted());
        }
    }

    synchronized void failed(String error) {
        Snapshot s = snapshot;
        Instant now = clock.instant();
        snapshot = new Snapshot(
                State.RETRYING,
                s.state() == State.RETRYING ? s.since() : now,
                error,
                now,
                s.lastBatchAt(),
                s.batchesRouted());
    }

    synchronized void batchRouted() {
        Snapshot s = snapshot;
        snapshot = new Snapshot(
                s.state(), s.since(), s.lastError(), s.lastErrorAt(), clock.instant(), s.batchesRouted() + 1);
    }
}
