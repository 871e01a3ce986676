package io.tributary.perf.progress;

import io.tributary.perf.measure.TimeSample;

/**
 * Where a run stands at one sampler tick: its phase and schedule, connections and messages so far, and the tick's
 * rates and latencies.
 *
 * @param leftSeconds   estimated time to the end of the run (NaN when unknown)
 * @param planned       connections this process means to open
 * @param sent          publishes so far (warm-up included)
 * @param received      deliveries so far (warm-up included)
 * @param brokerSampled whether broker CPU and RSS in the sample mean anything
 */
public record Progress(
        String phase,
        double elapsedSeconds,
        double leftSeconds,
        long planned,
        long ready,
        long failed,
        long lost,
        long sent,
        long received,
        int inflight,
        long windowFull,
        boolean brokerSampled,
        TimeSample sample) {}
