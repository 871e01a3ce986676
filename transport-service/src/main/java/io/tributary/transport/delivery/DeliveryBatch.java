package io.tributary.transport.delivery;

import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.tributary.kafka.tracing.Hop;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.OutboundMessage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

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
    /** Deliveries added since the last dispatch. */
    private int added;
    /** The deliver spans of the records since the last dispatch; null while there are none (tracing off). */
    private List<Hop> hops;

    DeliveryBatch(OutboundDelivery delivery) {
        this.delivery = delivery;
    }

    /** Starts a batch: the poll that read its records returned at {@code polledAtNanos}. */
    void begin(long polledAtNanos) {
        this.polledAtNanos = polledAtNanos;
    }

    void add(ClientConnection connection, OutboundMessage message, ByteBuf frame, int partition, long offset) {
        added++;
        byLoop.computeIfAbsent(connection.channel().eventLoop(), loop -> new ArrayList<>())
                .add(new Delivery(connection, message, frame, partition, offset));
    }

    /** Deliveries added since the last dispatch. */
    int added() {
        return added;
    }

    /**
     * A record's deliver span, ended once every event loop of this batch has written its deliveries (a span of a
     * record that had none ends at the dispatch).
     */
    void trace(Hop hop) {
        if (hop == Hop.NONE) {
            return;
        }
        if (hops == null) {
            hops = new ArrayList<>();
        }
        hops.add(hop);
    }

    /** Hands what was added to the event loops, one task each, and starts over. */
    void dispatch() {
        List<Hop> ending = hops;
        hops = null;
        added = 0;
        if (byLoop.isEmpty()) {
            endAll(ending);
            return;
        }
        long polledAt = polledAtNanos;
        // Only with traced records: the last event loop to finish ends their spans.
        AtomicInteger loopsLeft = ending == null ? null : new AtomicInteger(byLoop.size());
        for (Map.Entry<EventLoop, List<Delivery>> entry : byLoop.entrySet()) {
            List<Delivery> deliveries = entry.getValue();
            try {
                if (ending == null) {
                    entry.getKey().execute(() -> delivery.deliverAll(deliveries, polledAt));
                } else {
                    entry.getKey().execute(() -> {
                        try {
                            delivery.deliverAll(deliveries, polledAt);
                        } finally {
                            endIfLast(loopsLeft, ending);
                        }
                    });
                }
            } catch (RejectedExecutionException e) {
                // The event loop is shutting down with its connections: nothing to write to.
                deliveries.forEach(DeliveryBatch::release);
                if (ending != null) {
                    endIfLast(loopsLeft, ending);
                }
            }
        }
        byLoop.clear();
    }

    private static void endIfLast(AtomicInteger loopsLeft, List<Hop> ending) {
        if (loopsLeft.decrementAndGet() == 0) {
            endAll(ending);
        }
    }

    private static void endAll(List<Hop> ending) {
        if (ending != null) {
            ending.forEach(Hop::end);
        }
    }

    static void release(Delivery d) {
        if (d.frame() != null) {
            d.frame().release();
        }
    }
}
