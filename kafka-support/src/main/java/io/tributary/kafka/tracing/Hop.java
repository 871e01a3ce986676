package io.tributary.kafka.tracing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;

/**
 * The span of one hop of a message through Tributary (receive, route, deliver), or {@link #NONE} when tracing is off
 * or the message carries no trace: callers end every hop they start without checking which.
 *
 * <p>Thread-safe: a hop may end on another thread than the one that started it (a producer's I/O thread, an event
 * loop). Ending only hands the span to the batch processor's queue; the export runs on the processor's own thread.
 */
public final class Hop {

    /** No span: every method does nothing. */
    public static final Hop NONE = new Hop(null);

    /** Null for {@link #NONE}. */
    private final Span span;

    Hop(Span span) {
        this.span = span;
    }

    /** Whether this hop's span is recorded (and exported): false for {@link #NONE} and for a sampled-out trace. */
    public boolean isRecording() {
        return span != null && span.isRecording();
    }

    /** Adds a value to the span, when it is recorded. */
    public Hop attribute(AttributeKey<String> key, String value) {
        if (span != null) {
            span.setAttribute(key, value);
        }
        return this;
    }

    /** Adds a count to the span, when it is recorded. */
    public Hop count(AttributeKey<Long> key, long value) {
        if (span != null) {
            span.setAttribute(key, value);
        }
        return this;
    }

    /** Ends the span; {@code failure} non-null marks it failed. */
    public void end(Throwable failure) {
        if (span == null) {
            return;
        }
        if (failure != null) {
            span.setStatus(StatusCode.ERROR, failure.toString());
        }
        span.end();
    }

    public void end() {
        end(null);
    }
}
