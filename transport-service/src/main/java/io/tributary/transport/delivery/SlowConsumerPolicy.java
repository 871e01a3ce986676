package io.tributary.transport.delivery;

/**
 * What happens to a QoS 1/2 message for a subscriber whose outbound limits (queued messages, held bytes) are
 * reached. Either way the message is counted in {@code tributary_deliveries_dropped_total}.
 */
public enum SlowConsumerPolicy {
    /** Drop the new message; the subscriber keeps its connection and what it already holds. */
    DROP,
    /** Drop it and close the subscriber (MQTT 5: DISCONNECT 0x97 Quota exceeded), freeing everything it held. */
    DISCONNECT
}
