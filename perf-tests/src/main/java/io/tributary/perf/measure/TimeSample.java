package io.tributary.perf.measure;

/**
 * One second of a run, as plotted in the report.
 *
 * @param second          seconds since the run started
 * @param epochMillis     wall-clock time of the sample (aligns samples of separate processes when merging)
 * @param phase           connecting, warm-up, measure, drain, hold, closing
 * @param connected       open MQTT connections (CONNACK received, not closed)
 * @param connectRate     new connections in this second
 * @param sentRate        PUBLISH packets sent in this second
 * @param receivedRate    PUBLISH packets received in this second
 * @param p50Millis       end-to-end latency of this second's measured deliveries (NaN when none)
 * @param brokerCpu       broker CPU, percent of one core, all sampled PIDs summed
 * @param brokerRssBytes  broker resident memory, all sampled PIDs summed
 * @param generatorCpu    this process's CPU, percent of one core (it shares the machine with the broker)
 */
public record TimeSample(
        double second,
        long epochMillis,
        String phase,
        int connected,
        long connectRate,
        long sentRate,
        long receivedRate,
        long ackedRate,
        double p50Millis,
        double p99Millis,
        double maxMillis,
        double brokerCpu,
        long brokerRssBytes,
        double generatorCpu) {}
