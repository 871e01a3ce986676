package io.tributary.it.hostile;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayDeque;
import java.util.Random;

/**
 * One fuzz thread: connection after connection to one transport node. Each connection sends a CONNECT (valid, or a
 * hostile first packet), then a stream of packets of which some are mutated, draining what the server answers, and
 * ends with a {@link Probes probe} — a violation whose outcome is specified — after which the server must close the
 * connection. On "clean" connections (no mutation sent) the MQTT 5 DISCONNECT reason code is checked exactly; on
 * the others, any DISCONNECT before the close must carry an error reason code (0x80 or above).
 */
final class FuzzWorker implements Runnable {

    private static final int CLOSE_WITHIN_MS = 5_000;
    /**
     * How long a well-formed pipelined stream (up to ~420 packets, SUBSCRIBEs and QoS 2 flows among them) may take
     * to be answered before a probe: longer is a stalled connection, not a slow one.
     */
    private static final int STREAM_ANSWERED_WITHIN_MS = 60_000;

    private final int port;
    private final long seed;
    private final int worker;
    private final FuzzStats stats;
    private final long packetTarget;
    private final long deadlineNanos;

    FuzzWorker(int port, long seed, int worker, FuzzStats stats, long packetTarget, long deadlineNanos) {
        this.port = port;
        this.seed = seed;
        this.worker = worker;
        this.stats = stats;
        this.packetTarget = packetTarget;
        this.deadlineNanos = deadlineNanos;
    }

    @Override
    public void run() {
        int lane = 0;
        while (stats.packets.sum() < packetTarget && System.nanoTime() < deadlineNanos) {
            String clientId = "fz-" + seed % 100_000 + "-" + worker + "-" + lane;
            // One generator per connection: what a connection sends does not depend on how earlier ones ended, so
            // a failing connection is reproduced by its seed, worker and lane alone.
            Random random = new Random(seed * 1_000_003L + worker * 10_007L + lane++);
            try {
                connection(random, clientId);
            } catch (IOException e) {
                stats.count("client io error " + e.getClass().getSimpleName());
            }
        }
    }

    /** What the server did with one connection, as seen from the socket. */
    private static final class Seen {
        int lastDisconnectReason = -1;
        int pingResponses;
        boolean closed;
        boolean reset;
        final ByteArrayOutputStream pending = new ByteArrayOutputStream();
        /** The last mutated packets sent, for a failure's report. */
        final ArrayDeque<String> lastMutations = new ArrayDeque<>();

        void mutated(Mutator.Mutation m) {
            if (lastMutations.size() == 4) {
                lastMutations.pollFirst();
            }
            StringBuilder hex = new StringBuilder(m.kind() + ":");
            for (int i = 0; i < Math.min(24, m.bytes().length); i++) {
                hex.append(String.format("%02x", m.bytes()[i]));
            }
            lastMutations.addLast(hex.toString());
        }
    }

    private void connection(Random random, String clientId) throws IOException {
        Packets packets = new Packets(random, "fz/" + worker);
        Mutator mutator = new Mutator(random);
        boolean v5 = random.nextBoolean();
        boolean clean = random.nextInt(3) == 0;
        Seen seen = new Seen();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setTcpNoDelay(true);
            stats.connections.increment();
            OutputStream out = socket.getOutputStream();
            byte[] connect = packets.connect(v5, clientId, 5);
            if (!clean && random.nextInt(10) == 0) {
                // Hostile first packet: another packet type before CONNECT (must be closed), or a mutated CONNECT
                // (may happen to be valid, or incomplete: then the connect timeout ends it).
                boolean mutatedConnect = random.nextBoolean();
                byte[] first = mutatedConnect ? mutator.mutate(connect).bytes() : packets.any(v5);
                if (!send(out, first, seen)) {
                    return;
                }
                stats.packets.increment();
                stats.mutated.increment();
                drain(socket, seen, mutatedConnect ? 1_000 : CLOSE_WITHIN_MS);
                String what = mutatedConnect ? "mutated CONNECT first" : "other packet type first";
                stats.count(what + (seen.closed ? ": closed" : ": still open"));
                if (!mutatedConnect && !seen.closed) {
                    stats.fail(clientId + ": still open " + CLOSE_WITHIN_MS + " ms after a first packet of type "
                            + ((first[0] & 0xF0) >> 4));
                }
                return;
            }
            if (!send(out, connect, seen)) {
                return;
            }
            byte[] connack = readOne(socket, 10_000, seen);
            if (connack == null || (connack[0] & 0xF0) != 0x20 || connack.length < 3 || connack[2] != 0) {
                stats.count("connect not accepted");
                return;
            }
            int count = 20 + random.nextInt(400);
            int pings = 0;
            long streamStarted = System.nanoTime();
            ByteArrayOutputStream batch = new ByteArrayOutputStream();
            for (int i = 0; i < count && !seen.closed; i++) {
                byte[] packet = packets.any(v5);
                if (clean && (packet[0] & 0xFF) == 0xC0) {
                    pings++;
                }
                if (!clean && random.nextInt(8) == 0) {
                    Mutator.Mutation m = mutator.mutate(packet);
                    packet = m.bytes();
                    stats.mutated.increment();
                    stats.count("mutation " + m.kind());
                    seen.mutated(m);
                }
                batch.writeBytes(packet);
                stats.packets.increment();
                if (batch.size() > 2_000 || i == count - 1) {
                    if (!send(out, batch.toByteArray(), seen)) {
                        break;
                    }
                    batch.reset();
                    drain(socket, seen, 0);
                }
            }
            if (seen.closed) {
                stats.count(seen.reset ? "closed during stream (reset)" : "closed during stream");
                checkReason(v5, clean, null, seen, clientId);
                return;
            }
            if (clean && !streamAnswered(socket, out, seen, pings + 1, streamStarted, clientId)) {
                return;
            }
            Probes probe = Probes.values()[random.nextInt(Probes.values().length)];
            if (probe.v5Only() && !v5) {
                probe = Probes.SECOND_CONNECT;
            }
            stats.probes.increment();
            if (send(out, probe.bytes(v5, packets, clientId), seen)) {
                stats.packets.increment();
                drain(socket, seen, CLOSE_WITHIN_MS);
                if (!seen.closed && !clean) {
                    // A mutated remaining length may still be swallowing our bytes: complete any packet it awaits.
                    send(out, new byte[1_100_000], seen);
                    drain(socket, seen, CLOSE_WITHIN_MS);
                }
            }
            if (!seen.closed) {
                stats.fail(clientId + " (v5=" + v5 + ", clean=" + clean + "): still open " + CLOSE_WITHIN_MS
                        + " ms after probe " + probe + ", last mutations " + seen.lastMutations);
                return;
            }
            stats.count("closed after probe " + (clean ? "(clean) " : "") + probe);
            checkReason(v5, clean, probe, seen, clientId);
        }
    }

    private void checkReason(boolean v5, boolean clean, Probes probe, Seen seen, String clientId) {
        if (!v5) {
            return;
        }
        if (seen.lastDisconnectReason >= 0) {
            stats.count(String.format("DISCONNECT 0x%02X", seen.lastDisconnectReason));
        }
        if (clean && probe != null) {
            if (!probe.v5Reasons.contains(seen.lastDisconnectReason)) {
                stats.fail(clientId + ": probe " + probe + " ended with DISCONNECT reason "
                        + (seen.lastDisconnectReason < 0 ? "none" : Integer.toHexString(seen.lastDisconnectReason))
                        + (seen.reset ? " (reset)" : "") + ", expected one of " + probe.v5Reasons);
            }
        } else if (seen.lastDisconnectReason >= 0 && seen.lastDisconnectReason < 0x80) {
            stats.fail(clientId + ": server DISCONNECT with a non-error reason " + seen.lastDisconnectReason);
        }
    }

    /**
     * Sends one more PINGREQ and waits for the answers to every PINGREQ of the stream. The server handles a
     * connection's packets in order, so once they are in, everything before the probe has been handled, and the probe's
     * {@link #CLOSE_WITHIN_MS} measures the answer to the violation alone, not the time a pipelined stream of
     * SUBSCRIBEs and QoS 2 flows takes (reported as the slowest stream). A stream not answered within
     * {@link #STREAM_ANSWERED_WITHIN_MS} is a stalled connection: a failure.
     */
    private boolean streamAnswered(
            Socket socket, OutputStream out, Seen seen, int pings, long streamStarted, String clientId) {
        if (!send(out, new byte[] {(byte) 0xC0, 0}, seen)) {
            return false;
        }
        long deadline = System.nanoTime() + STREAM_ANSWERED_WITHIN_MS * 1_000_000L;
        while (seen.pingResponses < pings && !seen.closed && System.nanoTime() < deadline) {
            drain(socket, seen, 200);
        }
        if (seen.closed) {
            stats.count("closed during stream");
            return false;
        }
        if (seen.pingResponses < pings) {
            stats.fail(clientId + ": a well-formed stream not answered within " + STREAM_ANSWERED_WITHIN_MS
                    + " ms (PINGRESP " + seen.pingResponses + " of " + pings + ")");
            return false;
        }
        stats.streamAnswered(System.nanoTime() - streamStarted);
        return true;
    }

    /** Writes; false (and closed) when the server has already closed the connection. */
    private boolean send(OutputStream out, byte[] bytes, Seen seen) {
        try {
            out.write(bytes);
            out.flush();
            return true;
        } catch (IOException e) {
            seen.closed = true;
            seen.reset = true;
            return false;
        }
    }

    /** Reads what the server sent for up to {@code waitMs} (0: only what is there), noting DISCONNECT and EOF. */
    private void drain(Socket socket, Seen seen, int waitMs) {
        long deadline = System.nanoTime() + waitMs * 1_000_000L;
        try {
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[8192];
            while (true) {
                int wait = (int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
                if (waitMs == 0 && in.available() == 0) {
                    return;
                }
                socket.setSoTimeout(waitMs == 0 ? 1 : wait);
                int n = in.read(buffer);
                if (n < 0) {
                    seen.closed = true;
                    return;
                }
                seen.pending.write(buffer, 0, n);
                parse(seen);
                if (waitMs > 0 && System.nanoTime() > deadline) {
                    return;
                }
            }
        } catch (SocketTimeoutException e) {
            // nothing more for now
        } catch (IOException e) {
            seen.closed = true;
            seen.reset = true;
        }
    }

    private byte[] readOne(Socket socket, int waitMs, Seen seen) {
        long deadline = System.nanoTime() + waitMs * 1_000_000L;
        while (!seen.closed && System.nanoTime() < deadline) {
            byte[] packet = next(seen);
            if (packet != null) {
                return packet;
            }
            drainRaw(socket, seen, deadline);
        }
        return next(seen);
    }

    private void drainRaw(Socket socket, Seen seen, long deadline) {
        try {
            socket.setSoTimeout((int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            byte[] buffer = new byte[8192];
            int n = socket.getInputStream().read(buffer);
            if (n < 0) {
                seen.closed = true;
            } else {
                seen.pending.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException e) {
            // deadline
        } catch (IOException e) {
            seen.closed = true;
            seen.reset = true;
        }
    }

    /** Consumes whole packets from what was read, remembering the reason code of any DISCONNECT. */
    private static void parse(Seen seen) {
        byte[] packet;
        while ((packet = next(seen)) != null) {
            if ((packet[0] & 0xF0) == 0xE0) {
                seen.lastDisconnectReason = packet.length > 1 ? packet[1] & 0xFF : 0;
            } else if ((packet[0] & 0xFF) == 0xD0) {
                seen.pingResponses++;
            }
        }
    }

    /** The next whole packet (first byte + body) from {@code seen.pending}, or null. */
    private static byte[] next(Seen seen) {
        byte[] b = seen.pending.toByteArray();
        if (b.length < 2) {
            return null;
        }
        int length = 0;
        int multiplier = 1;
        int i = 1;
        while (true) {
            if (i >= b.length) {
                return null;
            }
            length += (b[i] & 0x7F) * multiplier;
            multiplier *= 128;
            if ((b[i++] & 0x80) == 0) {
                break;
            }
        }
        if (b.length < i + length) {
            return null;
        }
        byte[] packet = new byte[1 + length];
        packet[0] = b[0];
        System.arraycopy(b, i, packet, 1, length);
        seen.pending.reset();
        seen.pending.write(b, i + length, b.length - i - length);
        return packet;
    }
}
