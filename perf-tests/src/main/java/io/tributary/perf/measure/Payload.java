package io.tributary.perf.measure;

import io.netty.buffer.ByteBuf;
import io.tributary.perf.scenario.PublisherGroup;

/**
 * The 16 bytes at the start of every generated payload, big-endian, padded with filler to the payload size:
 * <pre>
 *   0..4   publisher id (bit 31 set = sent in the measured window, clear = warm-up)
 *   4..8   sequence number of this publisher's messages, from 0
 *   8..16  send time, microseconds since the epoch (wall clock, so separate processes on one host compare)
 * </pre>
 * 16 bytes is the smallest payload the scenarios use, so the stamp fits in all of them.
 */
public final class Payload {

    public static final int MIN_SIZE = PublisherGroup.MIN_PAYLOAD_SIZE;
    private static final int MEASURED_BIT = 0x8000_0000;
    private static final byte FILLER = (byte) 'x';

    /** A parsed stamp. */
    public record Stamp(int publisherId, int sequence, boolean measured, long sentMicros) {}

    private Payload() {}

    /** Writes a stamped payload of {@code size} bytes into {@code out}. */
    public static void write(ByteBuf out, int size, int publisherId, int sequence, boolean measured, long sentMicros) {
        if (size < MIN_SIZE) {
            throw new IllegalArgumentException("payload size " + size + " < " + MIN_SIZE);
        }
        if (publisherId < 0 || sequence < 0) {
            throw new IllegalArgumentException("publisher id and sequence must be >= 0");
        }
        out.writeInt(measured ? publisherId | MEASURED_BIT : publisherId);
        out.writeInt(sequence);
        out.writeLong(sentMicros);
        for (int i = MIN_SIZE; i < size; i++) {
            out.writeByte(FILLER);
        }
    }

    /**
     * Reads the stamp at the reader index without moving it; null when the payload cannot be one of ours (too short,
     * or a send time more than a day away from {@code nowMicros}: a retained or foreign message).
     */
    public static Stamp read(ByteBuf in, long nowMicros) {
        if (in.readableBytes() < MIN_SIZE) {
            return null;
        }
        int at = in.readerIndex();
        int idWord = in.getInt(at);
        int sequence = in.getInt(at + 4);
        long sent = in.getLong(at + 8);
        if (sequence < 0 || Math.abs(nowMicros - sent) > 86_400_000_000L) {
            return null;
        }
        return new Stamp(idWord & ~MEASURED_BIT, sequence, (idWord & MEASURED_BIT) != 0, sent);
    }
}
