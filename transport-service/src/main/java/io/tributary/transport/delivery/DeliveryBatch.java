package io.tributary.transport.delivery;

import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.OutboundMessage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;

/**
 * The deliveries of one poll of the downlink topic, grouped by event loop: each event loop gets one task per poll
 * that writes all of its deliveries in record order and flushes each connection once, instead of one task (and one
 * wake-up of the loop, one flush) per message per subscriber. Used by the downlink consumer thread only.
 */
final class DeliveryBatch {

    /**
     * One message for one connection.
     *
     * @param frame     this subscriber's reference to a {@link SharedPublishFrame}, or null: whoever holds the
     *                  delivery either writes it or releases it
     * @param partition where the message is in the publish topic (the record's {@code tributary.source}), -1 when
     *                  the record did not say
     * @param offset    its offset there, -1 when unknown
     */
    record Delivery(ClientConnection connection, OutboundMessage message, ByteBuf frame, int partition, long offset) {}

    private final OutboundDelivery delivery;
    private final Map<EventLoop, List<Delivery>> byLoop = new LinkedHashMap<>();
    private long polledAtNanos;

    DeliveryBatch(OutboundDelivery delivery) {
        this.delivery = delivery;
    }

    /** Starts a batch: the poll that read its records returned at {@code polledAtNanos}. */
    void begin(long polledAtNanos) {
        this.polledAtNanos = polledAtNanos;
    }

    void add(ClientConnection connection, OutboundMessage message, ByteBuf frame, int partition, long offset) {
        byLoop.computeIfAbsent(connection.channel().eventLoop(), loop -> new ArrayList<>())
                .add(new Delivery(connection, message, frame, partition, offset));
    }

    /** Hands what was added to the event loops, one task each, and starts over. */
    void dispatch() {
        if (byLoop.isEmpty()) {
            return;
        }
        long polledAt = polledAtNanos;
        for (Map.Entry<EventLoop, List<Delivery>> entry : byLoop.entrySet()) {
            List<Delivery> deliveries = entry.getValue();
            try {
                entry.getKey().execute(() -> delivery.deliverAll(deliveries, polledAt));
            } catch (RejectedExecutionException e) {
                // The event loop is shutting down with its connections: nothing to write to.
                deliveries.forEach(DeliveryBatch::release);
            }
        }
        byLoop.clear();
    }

    static void release(Delivery d) {
        if (d.frame() != null) {
            d.frame().release();
        }
    }
}
