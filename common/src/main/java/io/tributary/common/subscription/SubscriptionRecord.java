package io.tributary.common.subscription;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * One subscription as it travels on the subscription topics: which client holds which filter, on which transport
 * node it is connected now ({@code nodeId == null}: the session is offline), with what options.
 *
 * <p>Record key = {@link #key(String, String)} (filter, U+0000, client id: unique per subscription, so compaction
 * keeps the latest state of each). Value = {@link #encode()}; a {@code null} value (tombstone) removes the
 * subscription. The session epoch is carried both in the value and, for tombstones, in the
 * {@link io.tributary.common.kafka.RecordHeaders#EPOCH} header.
 *
 * @param retainHandling MQTT 5 retain handling option (0, 1 or 2)
 * @param persistent     the session outlives its connection (MQTT 3.1.1 clean session 0, MQTT 5 session expiry
 *                       above 0): QoS 1/2 messages for it go through its session queue, online or not
 */
public record SubscriptionRecord(
        String clientId,
        String filter,
        String nodeId,
        int qos,
        boolean noLocal,
        boolean retainAsPublished,
        int retainHandling,
        long epoch,
        boolean persistent) {

    /** Version 1 had no {@code persistent} flag; it is still read (an offline version-1 record is persistent). */
    private static final byte FORMAT_V1 = 1;

    private static final byte FORMAT_VERSION = 2;
    private static final char KEY_SEPARATOR = '\u0000';

    public SubscriptionRecord {
        if (clientId == null || filter == null) {
            throw new IllegalArgumentException("client id and filter are required");
        }
        if (qos < 0 || qos > 2) {
            throw new IllegalArgumentException("qos must be 0, 1 or 2: " + qos);
        }
        if (retainHandling < 0 || retainHandling > 2) {
            throw new IllegalArgumentException("retain handling must be 0, 1 or 2: " + retainHandling);
        }
    }

    /** A record in the version-1 sense: persistent exactly when offline. */
    public SubscriptionRecord(
            String clientId,
            String filter,
            String nodeId,
            int qos,
            boolean noLocal,
            boolean retainAsPublished,
            int retainHandling,
            long epoch) {
        this(clientId, filter, nodeId, qos, noLocal, retainAsPublished, retainHandling, epoch, nodeId == null);
    }

    public boolean online() {
        return nodeId != null;
    }

    public SubscriptionRecord withNode(String newNodeId, long newEpoch) {
        return new SubscriptionRecord(
                clientId, filter, newNodeId, qos, noLocal, retainAsPublished, retainHandling, newEpoch, persistent);
    }

    public byte[] key() {
        return key(filter, clientId);
    }

    /** Record key of the subscription of {@code clientId} to {@code filter}. MQTT forbids U+0000 in both. */
    public static byte[] key(String filter, String clientId) {
        return (filter + KEY_SEPARATOR + clientId).getBytes(StandardCharsets.UTF_8);
    }

    /** Splits a record key into {filter, clientId}. */
    public static String[] parseKey(byte[] key) {
        String s = new String(key, StandardCharsets.UTF_8);
        int sep = s.indexOf(KEY_SEPARATOR);
        if (sep < 0) {
            throw new IllegalArgumentException("not a subscription key: " + s);
        }
        return new String[] {s.substring(0, sep), s.substring(sep + 1)};
    }

    public byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + filter.length() + clientId.length());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT_VERSION);
            writeString(out, clientId);
            writeString(out, filter);
            out.writeBoolean(nodeId != null);
            if (nodeId != null) {
                writeString(out, nodeId);
            }
            out.writeByte(qos);
            out.writeBoolean(noLocal);
            out.writeBoolean(retainAsPublished);
            out.writeByte(retainHandling);
            out.writeLong(epoch);
            out.writeBoolean(persistent);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    public static SubscriptionRecord decode(byte[] value) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
            byte version = in.readByte();
            if (version != FORMAT_VERSION && version != FORMAT_V1) {
                throw new IllegalArgumentException("unknown subscription record format " + version);
            }
            String clientId = readString(in);
            String filter = readString(in);
            String nodeId = in.readBoolean() ? readString(in) : null;
            int qos = in.readByte();
            boolean noLocal = in.readBoolean();
            boolean retainAsPublished = in.readBoolean();
            int retainHandling = in.readByte();
            long epoch = in.readLong();
            boolean persistent = version == FORMAT_V1 ? nodeId == null : in.readBoolean();
            return new SubscriptionRecord(
                    clientId, filter, nodeId, qos, noLocal, retainAsPublished, retainHandling, epoch, persistent);
        } catch (IOException e) {
            throw new IllegalArgumentException("truncated subscription record", e);
        }
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String readString(DataInputStream in) throws IOException {
        int len = in.readInt();
        if (len < 0 || len > 1 << 20) {
            throw new IOException("bad string length " + len);
        }
        byte[] b = in.readNBytes(len);
        if (b.length != len) {
            throw new IOException("truncated string");
        }
        return new String(b, StandardCharsets.UTF_8);
    }
}
