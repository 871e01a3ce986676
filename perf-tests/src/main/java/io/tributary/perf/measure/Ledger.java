package io.tributary.perf.measure;

import java.util.ArrayList;
import java.util.List;

/**
 * The raw counts loss and duplicates are computed from, in a form that survives JSON and merges across processes:
 * what each publisher sent in the measured window per topic slot, and what each subscriber got from each publisher.
 *
 * @param publishers one entry per publisher this process ran
 * @param streams    flattened quadruples: publisher id, subscriber id, unique received, duplicates received
 */
public record Ledger(List<PublisherSent> publishers, long[] streams) {

    /** Measured messages one publisher sent, per topic slot {@code k}. */
    public record PublisherSent(int publisherId, long[] sentPerSlot) {

        public long total() {
            long sum = 0;
            for (long s : sentPerSlot) {
                sum += s;
            }
            return sum;
        }
    }

    public static final Ledger EMPTY = new Ledger(List.of(), new long[0]);

    public Ledger {
        publishers = List.copyOf(publishers);
        if (streams.length % 4 != 0) {
            throw new IllegalArgumentException("streams must hold quadruples");
        }
    }

    public int streamCount() {
        return streams.length / 4;
    }

    /** Both ledgers together: publishers and streams from separate processes simply add up. */
    public Ledger plus(Ledger other) {
        List<PublisherSent> pubs = new ArrayList<>(publishers);
        pubs.addAll(other.publishers);
        long[] all = new long[streams.length + other.streams.length];
        System.arraycopy(streams, 0, all, 0, streams.length);
        System.arraycopy(other.streams, 0, all, streams.length, other.streams.length);
        return new Ledger(pubs, all);
    }
}
