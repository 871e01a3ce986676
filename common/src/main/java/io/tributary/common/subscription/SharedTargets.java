package io.tributary.common.subscription;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The value of the {@link io.tributary.common.kafka.RecordHeaders#SHARED_TARGETS} header: which members of which
 * share groups a transport node delivers a message to. UTF-8 of {@code clientId U+0000 sharedFilter} entries, each
 * ended by U+0000 ({@code sharedFilter} is the full {@code $share/g/f}); MQTT forbids U+0000 in both parts.
 */
public final class SharedTargets {

    /** One chosen member: the client and the full shared filter it subscribed with. */
    public record Target(String clientId, String sharedFilter) {}

    private SharedTargets() {}

    public static byte[] encode(List<Target> targets) {
        StringBuilder text = new StringBuilder();
        for (Target t : targets) {
            text.append(t.clientId()).append('\u0000').append(t.sharedFilter()).append('\u0000');
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Decodes a header value; {@code null} or malformed input gives the entries that are whole. */
    public static List<Target> decode(byte[] value) {
        List<Target> targets = new ArrayList<>();
        if (value == null) {
            return targets;
        }
        String[] parts = new String(value, StandardCharsets.UTF_8).split("\u0000", -1);
        for (int i = 0; i + 1 < parts.length; i += 2) {
            targets.add(new Target(parts[i], parts[i + 1]));
        }
        return targets;
    }
}
