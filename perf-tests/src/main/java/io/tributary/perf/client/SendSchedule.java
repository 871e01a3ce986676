package io.tributary.perf.client;

import io.tributary.perf.scenario.PublishPhase;

/**
 * When one publisher sends: at {@code firstSendNanos}, then every {@code periodNanos} (System.nanoTime scale). A
 * spread publisher starts at a random point of its period, so a group's load is smooth; an aligned one starts on the
 * grid {@code anchor + k * period} that every aligned publisher of the run shares, so a whole group sends at the same
 * instants, back to back, like meters reporting on the tick.
 */
record SendSchedule(long firstSendNanos, long periodNanos) {

    /** At most one tick per 10 ms: above 100 msg/s each tick sends the messages that are due. */
    static final long MIN_PERIOD_NANOS = 10_000_000L;

    /**
     * @param anchorNanos where the aligned grid starts; no publisher sends before it (a start in the future holds
     *                    them all until then)
     * @param nowNanos    when this publisher starts
     * @param randomShare in [0, 1): where in its period a spread publisher starts (ignored when aligned)
     */
    static SendSchedule of(double rate, PublishPhase phase, long anchorNanos, long nowNanos, double randomShare) {
        long period = Math.max(MIN_PERIOD_NANOS, (long) (1e9 / rate));
        long sinceAnchor = nowNanos - anchorNanos;
        if (phase == PublishPhase.ALIGNED) {
            long periods = sinceAnchor <= 0 ? 0 : (sinceAnchor + period - 1) / period;
            return new SendSchedule(anchorNanos + periods * period, period);
        }
        long from = sinceAnchor < 0 ? anchorNanos : nowNanos;
        return new SendSchedule(from + (long) (randomShare * period), period);
    }

    /** The instant of send number {@code k} (from 0). */
    long sendNanos(long k) {
        return firstSendNanos + k * periodNanos;
    }
}
