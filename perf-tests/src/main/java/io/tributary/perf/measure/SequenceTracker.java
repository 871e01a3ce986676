package io.tributary.perf.measure;

import java.util.BitSet;

/**
 * What one subscriber received from one publisher: which sequence numbers arrived (a bit each), how many distinct,
 * how many again. Each instance is touched by one event loop thread only (a subscriber's channel never moves), and
 * read after the loops stop.
 */
public final class SequenceTracker {

    private final BitSet seen = new BitSet();
    private long unique;
    private long duplicates;

    /** Records a sequence number; true when it is new. */
    public boolean record(int sequence) {
        if (seen.get(sequence)) {
            duplicates++;
            return false;
        }
        seen.set(sequence);
        unique++;
        return true;
    }

    public long unique() {
        return unique;
    }

    public long duplicates() {
        return duplicates;
    }
}
