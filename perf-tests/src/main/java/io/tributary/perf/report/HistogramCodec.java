package io.tributary.perf.report;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.DataFormatException;

import org.HdrHistogram.Histogram;

import io.tributary.perf.measure.LiveMetrics;

/** HdrHistogram to and from base64 text, and to millisecond percentiles. */
public final class HistogramCodec {

    private HistogramCodec() {
    }

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
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(text)), 0);
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("corrupt histogram in result: " + e.getMessage(), e);
        }
    }

    /** Microsecond histogram to millisecond percentiles. */
    public static RunResult.Percentiles percentiles(Histogram micros) {
        if (micros.getTotalCount() == 0) {
            return RunResult.Percentiles.NONE;
        }
        return new RunResult.Percentiles(micros.getTotalCount(), micros.getMean() / 1000.0,
                ms(micros.getValueAtPercentile(50)), ms(micros.getValueAtPercentile(90)),
                ms(micros.getValueAtPercentile(99)), ms(micros.getValueAtPercentile(99.9)), ms(micros.getMaxValue()));
    }

    private static double ms(long micros) {
        return micros / 1000.0;
    }
}
