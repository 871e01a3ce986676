package io.tributary.perf.load;

import io.tributary.perf.scenario.Scenario;
import java.time.Duration;
import java.util.function.IntSupplier;

/**
 * The phases of one run and how long each is planned to take, the phase the run is in and since when: estimates the
 * time left for the progress display. The connect phase is estimated from the connections still to settle at the
 * planned ramp rate; a drain that ends early and a subscribers-only process that waits for another process's
 * publishers make the estimate an upper bound, not a promise.
 */
final class RunSchedule {

    static final Duration SETTLE_AFTER_CONNECT = Duration.ofSeconds(2);

    /** How a run goes on after connecting: publishing, receiving what another process publishes, or holding. */
    private enum Tail {
        PUBLISH,
        RECEIVE,
        HOLD
    }

    private final Scenario scenario;
    private final Tail tail;
    private final int planned;
    private final double rampSeconds;
    private final IntSupplier settled;
    private volatile String phase = "connecting";
    private volatile long phaseStartNanos = System.nanoTime();

    private RunSchedule(Scenario scenario, Tail tail, int planned, double rampSeconds, IntSupplier settled) {
        this.scenario = scenario;
        this.tail = tail;
        this.planned = planned;
        this.rampSeconds = rampSeconds;
        this.settled = settled;
    }

    /** @param settled connections ready or failed so far */
    static RunSchedule of(Scenario scenario, Role role, IntSupplier settled) {
        return new RunSchedule(
                scenario, tail(scenario, role), planned(scenario, role), rampSeconds(scenario, role), settled);
    }

    /** The whole run's planned length before it starts (compare: the time its later runs add). */
    static double estimatedSeconds(Scenario scenario, Role role) {
        return of(scenario, role, () -> 0).leftSeconds();
    }

    void enter(String newPhase) {
        phaseStartNanos = System.nanoTime();
        phase = newPhase;
    }

    String phase() {
        return phase;
    }

    int planned() {
        return planned;
    }

    /** Estimated seconds to the end of the run; 0 once it closes. */
    double leftSeconds() {
        double inPhase = (System.nanoTime() - phaseStartNanos) / 1e9;
        double warmUp = seconds(scenario.warmUp());
        double duration = seconds(scenario.duration());
        double drain = seconds(scenario.drain());
        return switch (phase) {
            case "connecting" -> connectLeft(inPhase) + seconds(SETTLE_AFTER_CONNECT) + tailSeconds();
            case "warm-up" -> Math.max(0, warmUp - inPhase) + duration + drain;
            case "measure" -> Math.max(0, duration - inPhase) + drain;
            case "drain" -> Math.max(0, drain - inPhase);
            case "receiving" -> Math.max(0, receiveSeconds() - inPhase);
            case "hold" -> Math.max(0, duration - inPhase);
            default -> 0;
        };
    }

    private double connectLeft(double inPhase) {
        if (planned == 0) {
            return 0;
        }
        double perSecond = rampSeconds > 0 ? planned / rampSeconds : Double.POSITIVE_INFINITY;
        int remaining = Math.max(0, planned - settled.getAsInt());
        return Math.max(remaining / perSecond, remaining > 0 ? rampSeconds - inPhase : 0);
    }

    private double tailSeconds() {
        return switch (tail) {
            case PUBLISH -> seconds(scenario.warmUp()) + seconds(scenario.duration()) + seconds(scenario.drain());
            case RECEIVE -> receiveSeconds();
            case HOLD -> seconds(scenario.duration());
        };
    }

    /** A subscribers-only process receives while the publishers' process connects, publishes and drains. */
    private double receiveSeconds() {
        return scenario.publisherRampSeconds()
                + seconds(SETTLE_AFTER_CONNECT)
                + seconds(scenario.warmUp())
                + seconds(scenario.duration())
                + 2 * seconds(scenario.drain())
                + 1;
    }

    private static Tail tail(Scenario scenario, Role role) {
        if (role.runsPublishers() && !scenario.publishers().isEmpty()) {
            return Tail.PUBLISH;
        }
        return role == Role.SUBSCRIBERS && !scenario.publishers().isEmpty() ? Tail.RECEIVE : Tail.HOLD;
    }

    private static int planned(Scenario scenario, Role role) {
        int count = 0;
        if (role.runsSubscribers()) {
            count += scenario.subscribers().stream()
                    .mapToInt(g -> g.client().count())
                    .sum();
            count += scenario.connections().stream().mapToInt(c -> c.count()).sum();
        }
        if (role.runsPublishers()) {
            count += scenario.publisherCount();
        }
        return count;
    }

    private static double rampSeconds(Scenario scenario, Role role) {
        double s = 0;
        if (role.runsSubscribers()) {
            s += scenario.subscribers().stream()
                    .mapToDouble(g -> g.client().rampSeconds())
                    .sum();
            s += scenario.connections().stream()
                    .mapToDouble(c -> c.rampSeconds())
                    .sum();
        }
        if (role.runsPublishers()) {
            s += scenario.publisherRampSeconds();
        }
        return s;
    }

    private static double seconds(Duration d) {
        return d.toMillis() / 1000.0;
    }
}
