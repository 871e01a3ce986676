package io.tributary.perf.report;

import io.tributary.perf.measure.LiveMetrics;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/** HdrHistogram to and from base64 text, and to millisecond percentiles. */
public final class HistogramCodec {

    private HistogramCodec() {}

    public static String encode(Histogram histogram) {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        byte[] bytes = new byte[length];
        buffer.flip();
        buffer.get(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    public static Histogram decode(String text) {
        if (text == null || text.isEmpty()) {
            return LiveMetrics.newHistogram();
        }
        try {
            return Histogram.decodeFromCompressedByteBuffer(
                    ByteBuffer.wrap(Base64.getDecoder().decode(text)), 0);
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("corrupt histogram in result: " + e.getMessage(), e);
        }
    }

    /** Microsecond histogram to millisecond percentiles. */
    public static RunResult.Percentiles percentiles(Histogram micros) {
        if (micros.getTotalCount() == 0) {
            return RunResult.Percentiles.NONE;
        }
        return new RunResult.Percentiles(
                micros.getTotalCount(),
                micros.getMean() / 1000.0,
                ms(micros.getValueAtPercentile(50)),
                ms(micros.getValueAtPercentile(90)),
                ms(micros.getValueAtPercentile(99)),
                ms(micros.getValueAtPercentile(99.9)),
                ms(micros.getMaxValue()));
    }

    /**
     * The latency at percentiles spread evenly over "nines" (x = log10(1 / (1 - percentile/100)): 0 is the minimum, 1
     * the 90th, 2 the 99th...), up to the rarest percentile the count can tell (one in {@code count}, at most six
     * nines), in milliseconds of at least 1 µs (so a log scale can show them): {@code [x[], y[]]}, empty when nothing
     * was recorded.
     */
    public static double[][] spectrum(Histogram micros) {
        long count = micros.getTotalCount();
        if (count == 0) {
            return new double[][] {new double[0], new double[0]};
        }
        double top = Math.min(6, Math.log10((double) count));
        int steps = Math.max(1, (int) Math.ceil(top / 0.05));
        double[] x = new double[steps + 1];
        double[] y = new double[steps + 1];
        for (int i = 0; i <= steps; i++) {
            x[i] = top * i / steps;
            double percentile = 100 * (1 - Math.pow(10, -x[i]));
            y[i] = Math.max(0.001, ms(micros.getValueAtPercentile(percentile)));
        }
        return new double[][] {x, y};
    }

    private static double ms(long micros) {
        return micros / 1000.0;
    }
}
