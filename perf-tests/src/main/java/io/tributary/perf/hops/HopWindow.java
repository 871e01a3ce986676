package io.tributary.perf.hops;

import java.util.Map;
import java.util.TreeMap;

/**
 * What one hop histogram recorded between two scrapes: counts per bucket bound (seconds), not cumulative over the
 * service's life but over the window. From it a quantile and an upper bound of the window's highest value: the
 * bound of the highest bucket that got a sample (a service publishes buckets, not its samples).
 */
record HopWindow(long startMillis, long endMillis, TreeMap<Double, Double> cumulative) {

    /** The window between an earlier and a later cumulative snapshot of the same series. */
    static HopWindow between(
            long startMillis, long endMillis, TreeMap<Double, Double> earlier, TreeMap<Double, Double> later) {
        TreeMap<Double, Double> delta = new TreeMap<>();
        for (Map.Entry<Double, Double> e : later.entrySet()) {
            double before = earlier.getOrDefault(e.getKey(), 0.0);
            // A restarted service starts its counters again: that window is taken as counted from zero.
            delta.put(e.getKey(), e.getValue() >= before ? e.getValue() - before : e.getValue());
        }
        return new HopWindow(startMillis, endMillis, delta);
    }

    /** Samples in the window. */
    double count() {
        return cumulative.isEmpty() ? 0 : cumulative.lastEntry().getValue();
    }

    /** The smallest bucket bound (milliseconds) with at least {@code q} of the window's samples at or below it. */
    double quantileMillis(double q) {
        double total = count();
        for (Map.Entry<Double, Double> e : cumulative.entrySet()) {
            if (total > 0 && e.getValue() >= q * total) {
                return e.getKey() * 1000;
            }
        }
        return Double.NaN;
    }

    /** Upper bound (milliseconds) of the window's highest sample: the bound of the last bucket that grew. */
    double maxBoundMillis() {
        return quantileMillis(1.0);
    }

    /** This window and another of the same series, as one. */
    HopWindow plus(HopWindow other) {
        TreeMap<Double, Double> sum = new TreeMap<>(cumulative);
        other.cumulative.forEach((le, c) -> sum.merge(le, c, Double::sum));
        return new HopWindow(Math.min(startMillis, other.startMillis), Math.max(endMillis, other.endMillis), sum);
    }
}
