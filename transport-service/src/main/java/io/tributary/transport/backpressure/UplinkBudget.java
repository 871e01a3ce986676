package io.tributary.transport.backpressure;

import io.netty.channel.Channel;
import io.tributary.transport.metrics.TransportMetrics;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Bytes of publish records handed to the Kafka producer and not yet answered, per connection and per node. While
 * Kafka is slow or down, the producer would otherwise buffer every PUBLISH a client sends (and block the event loop
 * for max.block.ms once its buffer.memory is full). Over a limit, reading from the client stops (autoRead off, so
 * TCP pushes back on the publisher); it resumes once the pending bytes fell to half the limit, so a paused
 * connection does not flap on every acknowledgement.
 *
 * <p>{@link #acquire} runs on the connection's event loop; the returned release runs on whatever thread Kafka
 * answers on and hops back to event loops only to resume reading.
 */
public final class UplinkBudget {

    /** Per-connection pending bytes; owned by one connection, updated from its event loop and the producer thread. */
    public static final class Account {
        private final AtomicLong pending = new AtomicLong();

        public long pending() {
            return pending.get();
        }
    }

    /** Frees what {@link #acquire} accounted, once Kafka answered the record (any thread, exactly once). */
    @FunctionalInterface
    public interface Release {
        void run();
    }

    private final long maxPerConnection;
    private final long maxPerNode;
    private final TransportMetrics metrics;
    private final AtomicLong nodePending = new AtomicLong();
    /** Channels paused because of the node limit, to resume when the node drains. */
    private final Set<Channel> waitingForNode = ConcurrentHashMap.newKeySet();

    public UplinkBudget(long maxPerConnection, long maxPerNode, TransportMetrics metrics) {
        this.maxPerConnection = maxPerConnection;
        this.maxPerNode = maxPerNode;
        this.metrics = metrics;
        metrics.gaugeUplinkPendingBytes(nodePending::get);
    }

    /** Accounts {@code bytes} for a record about to be sent; pauses reading from {@code channel} past a limit. */
    public Release acquire(Channel channel, Account account, long bytes) {
        long connection = account.pending.addAndGet(bytes);
        long node = nodePending.addAndGet(bytes);
        if (connection > maxPerConnection && ReadGate.pause(channel, ReadGate.Reason.UPLINK_CONNECTION)) {
            metrics.readPaused("uplink_connection");
        }
        if (node > maxPerNode) {
            waitingForNode.add(channel);
            if (ReadGate.pause(channel, ReadGate.Reason.UPLINK_NODE)) {
                metrics.readPaused("uplink_node");
            }
            // Kafka may have answered everything between the add above and the pause: nobody would resume us.
            if (nodePending.get() <= maxPerNode / 2) {
                resumeWaiting();
            }
        }
        return () -> release(channel, account, bytes);
    }

    private void release(Channel channel, Account account, long bytes) {
        long lowConnection = maxPerConnection / 2;
        long connection = account.pending.addAndGet(-bytes);
        if (connection <= lowConnection && connection + bytes > lowConnection) {
            channel.eventLoop().execute(() -> {
                // Re-checked on the loop: more publishes may have been read since.
                if (account.pending.get() <= lowConnection) {
                    ReadGate.resume(channel, ReadGate.Reason.UPLINK_CONNECTION);
                }
            });
        }
        if (nodePending.addAndGet(-bytes) <= maxPerNode / 2 && !waitingForNode.isEmpty()) {
            resumeWaiting();
        }
    }

    // waitingForNode is a concurrent set: its iterator tolerates the removals, and remove() tells which thread won.
    @SuppressWarnings("ModifyCollectionInEnhancedForLoop")
    private void resumeWaiting() {
        for (Channel channel : waitingForNode) {
            if (waitingForNode.remove(channel)) {
                channel.eventLoop().execute(() -> ReadGate.resume(channel, ReadGate.Reason.UPLINK_NODE));
            }
        }
    }

    public long nodePendingBytes() {
        return nodePending.get();
    }

    /** What a record costs the producer: key, value, headers and Kafka's per-record overhead, roughly. */
    public static long sizeOf(ProducerRecord<byte[], byte[]> record) {
        long size = 64L
                + (record.key() == null ? 0 : record.key().length)
                + (record.value() == null ? 0 : record.value().length);
        for (Header h : record.headers()) {
            size += h.key().length() + (h.value() == null ? 0 : h.value().length) + 8;
        }
        return size;
    }
}
