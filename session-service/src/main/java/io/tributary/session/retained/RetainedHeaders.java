package io.tributary.session.retained;

import io.tributary.common.session.SubscribeApi;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Encodes a publish record's headers for the {@code retained_messages.headers} column, in order (user properties
 * keep their order). Layout: count, then per header name length, name UTF-8, value length (-1 = null), value.
 */
public final class RetainedHeaders {

    private RetainedHeaders() {}

    public static List<SubscribeApi.Header> of(Headers headers) {
        List<SubscribeApi.Header> out = new ArrayList<>();
        for (Header h : headers) {
            out.add(new SubscribeApi.Header(h.key(), h.value()));
        }
        return out;
    }

    public static byte[] encode(List<SubscribeApi.Header> headers) {
        int size = 4;
        List<byte[]> names = new ArrayList<>(headers.size());
        for (SubscribeApi.Header h : headers) {
            byte[] name = h.name().getBytes(StandardCharsets.UTF_8);
            names.add(name);
            size += 8 + name.length + (h.value() == null ? 0 : h.value().length);
        }
        ByteBuffer buffer = ByteBuffer.allocate(size).putInt(headers.size());
        for (int i = 0; i < headers.size(); i++) {
            byte[] value = headers.get(i).value();
            buffer.putInt(names.get(i).length).put(names.get(i));
            if (value == null) {
                buffer.putInt(-1);
            } else {
                buffer.putInt(value.length).put(value);
            }
        }
        return buffer.array();
    }

    public static List<SubscribeApi.Header> decode(byte[] bytes) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        int count = buffer.getInt();
        List<SubscribeApi.Header> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] name = new byte[buffer.getInt()];
            buffer.get(name);
            int length = buffer.getInt();
            byte[] value = null;
            if (length >= 0) {
                value = new byte[length];
                buffer.get(value);
            }
            out.add(new SubscribeApi.Header(new String(name, StandardCharsets.UTF_8), value));
        }
        return out;
    }
}
