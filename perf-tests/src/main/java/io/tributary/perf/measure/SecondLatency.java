package io.tributary.perf.measure;

/**
 * End-to-end latency of the messages sent in one second of the measured window. By send time, not by arrival: the
 * messages a stall held up all land in the second they were sent in, however late they arrive.
 *
 * @param second      whole seconds from the start of the measured window (0 = the first second)
 * @param epochMillis wall-clock start of that second (aligns the series of separate processes when merging)
 * @param messages    measured deliveries of messages sent in that second (0: none)
 * @param p50Millis   median of that second (-1 when it has no message; p50 and p99 have 2 significant digits)
 * @param maxMillis   highest latency of that second, exact (-1 when it has no message)
 */
public record SecondLatency(
        int second, long epochMillis, long messages, double p50Millis, double p99Millis, double maxMillis) {

    public static SecondLatency empty(int second, long epochMillis) {
        return new SecondLatency(second, epochMillis, 0, -1, -1, -1);
    }
}
