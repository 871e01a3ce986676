package io.tributary.common.kafka;

/**
 * How Tributary writes the numbers and flags of its record headers ({@link RecordHeaders}). Strings are UTF-8 in
 * both; opaque bytes (MQTT 5 correlation data) stay raw in both. Readers accept both forms whatever is configured,
 * so records written before an upgrade, or by a service still on the other setting, are read correctly.
 */
public enum HeaderFormat {
    /**
     * UTF-8 text: numbers in decimal (timestamps as epoch milliseconds), flags {@code true} / {@code false}. What
     * Kafka Connect's {@code SimpleHeaderConverter}, kcat and the console consumer show as values.
     */
    TEXT,
    /**
     * The form written before text headers (see CHANGELOG, "Record headers as text"): numbers big-endian in 1, 4 or 8 bytes, flags one byte 0 / 1.
     * For consumers that parse those bytes, and for the first step of a rolling upgrade from a version whose readers
     * know only this form.
     */
    BINARY
}
