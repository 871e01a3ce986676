package io.tributary.common.kafka;

import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/) as Tributary carries it: an MQTT 5 user property
 * {@code traceparent} (and {@code tracestate}) of a PUBLISH becomes the Kafka header of the same name on the records
 * the PUBLISH is written as, where Kafka-side tracing (OpenTelemetry's Kafka instrumentation, for one) reads it.
 */
public final class TraceContext {

    /** version 00 as W3C defines it; later versions may append fields, which are kept as they come. */
    private static final Pattern TRACEPARENT =
            Pattern.compile("[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}(-[0-9a-zA-Z._-]*)?");

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private TraceContext() {}

    /**
     * Whether a {@code traceparent} value may be passed on as one: the W3C format, not version ff, and neither an
     * all-zero trace id nor an all-zero parent id (both mean "invalid" in the specification).
     */
    public static boolean isValidTraceparent(String value) {
        if (value == null || value.length() > 512 || !TRACEPARENT.matcher(value).matches()) {
            return false;
        }
        if (value.startsWith("ff") || (value.startsWith("00") && value.length() != 55)) {
            return false;
        }
        return !allZero(value, 3, 35) && !allZero(value, 36, 52);
    }

    /** A new traceparent: version 00, random trace and parent ids, flags 01 (sampled). */
    public static String generate() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        char[] out = new char[55];
        out[0] = '0';
        out[1] = '0';
        out[2] = '-';
        long hi;
        long lo;
        long span;
        do {
            hi = random.nextLong();
            lo = random.nextLong();
        } while (hi == 0 && lo == 0);
        do {
            span = random.nextLong();
        } while (span == 0);
        hex(hi, out, 3);
        hex(lo, out, 19);
        out[35] = '-';
        hex(span, out, 36);
        out[52] = '-';
        out[53] = '0';
        out[54] = '1';
        return new String(out);
    }

    private static void hex(long value, char[] out, int at) {
        for (int i = 15; i >= 0; i--) {
            out[at + i] = HEX[(int) (value & 0xF)];
            value >>>= 4;
        }
    }

    private static boolean allZero(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (s.charAt(i) != '0') {
                return false;
            }
        }
        return true;
    }
}
