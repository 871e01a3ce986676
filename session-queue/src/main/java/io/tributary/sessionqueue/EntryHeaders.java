package io.tributary.sessionqueue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The publish record's headers as one stream field ({@link SessionQueueKeys#FIELD_HEADERS}), order and repeats kept:
 * {@code count:int32} then per header {@code keyLength:int32 key valueLength:int32 value} ({@code -1} = null value).
 */
public final class EntryHeaders {

    private EntryHeaders() {}

    public static byte[] encode(Headers headers) {
        Header[] all = headers.toArray();
        int size = 4;
        byte[][] keys = new byte[all.length][];
        for (int i = 0; i < all.length; i++) {
            keys[i] = all[i].key().getBytes(StandardCharsets.UTF_8);
            size += 8 + keys[i].length + (all[i].value() == null ? 0 : all[i].value().length);
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.putInt(all.length);
        for (int i = 0; i < all.length; i++) {
            out.putInt(keys[i].length).put(keys[i]);
            byte[] value = all[i].value();
            if (value == null) {
                out.putInt(-1);
            } else {
                out.putInt(value.length).put(value);
            }
        }
        return out.array();
    }

    /** @throws IllegalArgumentException when {@code encoded} is not what {@link #encode} writes */
    public static Headers decode(byte[] encoded) {
        RecordHeaders headers = new RecordHeaders();
        if (encoded == null || encoded.length == 0) {
            return headers;
        }
        try {
            ByteBuffer in = ByteBuffer.wrap(encoded);
            int count = in.getInt();
            if (count < 0 || count > encoded.length) {
                throw new IllegalArgumentException("bad header count " + count);
            }
            for (int i = 0; i < count; i++) {
                byte[] key = new byte[checkedLength(in.getInt(), in)];
                in.get(key);
                int valueLength = in.getInt();
                byte[] value = null;
                if (valueLength >= 0) {
                    value = new byte[checkedLength(valueLength, in)];
                    in.get(value);
                }
                headers.add(new String(key, StandardCharsets.UTF_8), value);
            }
            return headers;
        } catch (java.nio.BufferUnderflowException e) {
            throw new IllegalArgumentException("truncated queue entry headers", e);
        }
    }

    private static int checkedLength(int length, ByteBuffer in) {
        if (length < 0 || length > in.remaining()) {
            throw new IllegalArgumentException("bad length " + length);
        }
        return length;
    }
}
