package io.tributary.common.queue;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The value of the {@link io.tributary.common.kafka.RecordHeaders#QUEUED} header: client id → a queue sequence at
 * which the message (or, after a replayed batch, something newer) is in that client's queue. UTF-8 of
 * {@code clientId U+0000 seq U+0000} entries; MQTT forbids U+0000 in client ids.
 */
public final class QueuedNotice {

    private QueuedNotice() {}

    public static byte[] encode(Map<String, Long> sequences) {
        StringBuilder text = new StringBuilder(sequences.size() * 24);
        sequences.forEach((client, seq) ->
                text.append(client).append('\u0000').append(seq).append('\u0000'));
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Decodes a header value; {@code null} gives an empty map, malformed entries are skipped. */
    public static Map<String, Long> decode(byte[] value) {
        Map<String, Long> sequences = new LinkedHashMap<>();
        if (value == null) {
            return sequences;
        }
        String[] parts = new String(value, StandardCharsets.UTF_8).split("\u0000", -1);
        for (int i = 0; i + 1 < parts.length; i += 2) {
            try {
                sequences.put(parts[i], Long.parseLong(parts[i + 1]));
            } catch (NumberFormatException e) {
                // skip a malformed entry; the client is still served at its next wake-up or reconnect
            }
        }
        return sequences;
    }
}
