package io.tributary.it.conformance;

import io.tributary.it.support.Mqtt5Packets;
import io.tributary.it.support.RawMqtt;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Reads what the server sends on a {@link RawMqtt} connection like an independent client would: every packet is
 * kept, in order, so a test can wait for one packet and still look at those that came before it.
 */
final class Wire {

    static final int CONNACK = 2;
    static final int PUBLISH = 3;
    static final int PUBACK = 4;
    static final int PUBREC = 5;
    static final int PUBCOMP = 7;
    static final int SUBACK = 9;
    static final int UNSUBACK = 11;
    static final int DISCONNECT = 14;

    private final RawMqtt raw;
    private final List<byte[]> seen = new ArrayList<>();
    private boolean closed;

    Wire(RawMqtt raw) {
        this.raw = raw;
    }

    /** The next packet matching {@code wanted} within {@code timeoutMs}; null if none came or the server closed. */
    byte[] await(Predicate<byte[]> wanted, long timeoutMs) throws IOException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (!closed) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                return null;
            }
            byte[] packet;
            try {
                packet = raw.readPacket((int) left);
            } catch (SocketTimeoutException e) {
                return null;
            } catch (IOException e) {
                closed = true;
                return null;
            }
            if (packet == null) {
                closed = true;
                return null;
            }
            seen.add(packet);
            if (wanted.test(packet)) {
                return packet;
            }
        }
        return null;
    }

    byte[] awaitType(int type, long timeoutMs) throws IOException {
        return await(p -> Mqtt5Packets.type(p) == type, timeoutMs);
    }

    /** Reads until {@code count} packets of {@code type} have been seen in all (counting earlier ones). */
    boolean awaitSeen(int type, int count, long timeoutMs) throws IOException {
        if (seen(type).size() >= count) {
            return true;
        }
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (seen(type).size() < count) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0 || awaitType(type, left) == null) {
                return false;
            }
        }
        return true;
    }

    /** Reads until the server closes the connection or {@code timeoutMs} pass; true if it closed. */
    boolean awaitClose(long timeoutMs) throws IOException {
        await(p -> false, timeoutMs);
        return closed;
    }

    boolean closed() {
        return closed;
    }

    /** Every packet read so far of {@code type}. */
    List<byte[]> seen(int type) {
        return seen.stream().filter(p -> Mqtt5Packets.type(p) == type).toList();
    }

    static Predicate<byte[]> publishWithPayload(byte[] payload, boolean mqtt5) {
        return p -> Mqtt5Packets.type(p) == PUBLISH
                && java.util.Arrays.equals(
                        mqtt5 ? Mqtt5Packets.parsePublish(p).payload() : RawMqtt.publishPayload(p), payload);
    }
}
