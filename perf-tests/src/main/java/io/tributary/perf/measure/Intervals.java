package io.tributary.perf.measure;

import org.HdrHistogram.Histogram;

/**
 * What the latency recorders saw since the previous harvest, one histogram per kind, each with its interval's start
 * and end time stamps (epoch milliseconds). Valid until the next harvest.
 */
public record Intervals(Histogram endToEnd, Histogram publishAck, Histogram connect) {}
