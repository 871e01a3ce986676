package io.tributary.common.kafka;

import java.nio.charset.StandardCharsets;

/**
 * What a record on a node's downlink topic asks the transport node to do. Carried in the
 * {@link RecordHeaders#DOWNLINK_TYPE} header as its lower-case name.
 */
public enum DownlinkType {
    /** Deliver the message (key = MQTT topic, value = payload) to every local subscriber whose filter matches. */
    PUBLISH,
    /**
     * Another connection took this client id over: close the local connection of client {@code key} if its epoch is
     * lower than the record's {@link RecordHeaders#EPOCH}, with MQTT 5 reason 0x8E (session taken over).
     */
    TAKEOVER,
    /**
     * An operator asked to disconnect client {@code key}: close it if its epoch is not higher than the record's
     * epoch, with MQTT 5 reason {@link RecordHeaders#REASON_CODE} (default 0x98, administrative action).
     */
    DISCONNECT,
    /**
     * Read the session queue of client {@code key} if it is connected here: routing learned that the client's
     * persistent session is now connected on this node. Messages routing appended while it still had the client
     * elsewhere (or offline) woke nobody; the new connection may have read its queue before they were appended.
     */
    WAKE;

    public byte[] headerValue() {
        return name().toLowerCase(java.util.Locale.ROOT).getBytes(StandardCharsets.UTF_8);
    }

    public static DownlinkType fromHeader(byte[] value) {
        if (value == null) {
            return PUBLISH;
        }
        return valueOf(new String(value, StandardCharsets.UTF_8).toUpperCase(java.util.Locale.ROOT));
    }
}
