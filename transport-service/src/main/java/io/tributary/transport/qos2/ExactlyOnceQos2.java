package io.tributary.transport.qos2;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exactly-once QoS 2 into Kafka for persistent sessions: a publish, its mapped and retained copies and its marker (client id,
 * session incarnation, packet id: {@link Qos2Markers}) are committed in one Kafka transaction ({@link
 * TransactionalUplink}); a re-sent publish (DUP = 1) the node has no PUBREC record of — its first copy went to a node
 * that died between Kafka and the Redis write — is committed only if no committed marker says it is stored already
 * ({@link Qos2MarkerIndex}). Absent (null where it is passed) when {@code TRIBUTARY_QOS2_EXACTLY_ONCE} is false.
 */
public final class ExactlyOnceQos2 {

    private static final Logger log = LoggerFactory.getLogger(ExactlyOnceQos2.class);

    /** How a store ended, reported on a Kafka client thread: callers hop back to their event loop. */
    @FunctionalInterface
    public interface Stored {
        /**
         * @param failure   null when the publish is stored (now or before)
         * @param duplicate true when an earlier copy was stored already and nothing was written now
         */
        void completed(Exception failure, boolean duplicate);
    }

    private final TransactionalUplink uplink;
    private final Qos2MarkerIndex markers;

    public ExactlyOnceQos2(TransactionalUplink uplink, Qos2MarkerIndex markers) {
        this.uplink = uplink;
        this.markers = markers;
    }

    /**
     * Stores the records of one QoS 2 publish with its marker, at most once per {@code key}.
     *
     * @param resent the PUBLISH has DUP = 1 and its packet id is not among the session's PUBREC'd ids: look for a
     *               stored copy first
     */
    public void store(
            List<ProducerRecord<byte[], byte[]>> records, String key, byte[] digest, boolean resent, Stored outcome) {
        List<ProducerRecord<byte[], byte[]>> all = new ArrayList<>(records.size() + 1);
        all.addAll(records);
        all.add(Qos2Markers.marker(key, digest));
        if (!resent) {
            uplink.send(all, failure -> outcome.completed(failure, false));
            return;
        }
        markers.stored(key, digest).whenComplete((stored, failure) -> {
            if (failure != null) {
                outcome.completed(failure instanceof Exception e ? e : new IllegalStateException(failure), false);
            } else if (stored) {
                outcome.completed(null, true);
            } else {
                uplink.send(all, f -> outcome.completed(f, false));
            }
        });
    }

    /**
     * At PUBREL: forgets the marker in the next transaction, without waiting for it (PUBCOMP does not wait: a new
     * message with the packet id has its own digest, so the marker cannot be taken for it meanwhile).
     */
    public void release(String key) {
        uplink.send(List.of(Qos2Markers.tombstone(key)), failure -> {
            if (failure != null) {
                // Left until the topic's retention removes it; it matches only this message's digest.
                log.debug("QoS 2 marker {} not released: {}", key, failure.toString());
            }
        });
    }

    public Qos2MarkerIndex markers() {
        return markers;
    }

    /** Stops the transaction thread and the marker follower. */
    public void close() throws InterruptedException {
        uplink.close();
        markers.close();
    }
}
