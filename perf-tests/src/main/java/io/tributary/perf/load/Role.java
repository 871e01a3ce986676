package io.tributary.perf.load;

import java.util.Locale;

/** Which side of a scenario this process runs; two processes with complementary roles run one scenario together. */
public enum Role {
    PUBLISHERS,
    SUBSCRIBERS,
    ALL;

    public boolean runsPublishers() {
        return this != SUBSCRIBERS;
    }

    public boolean runsSubscribers() {
        return this != PUBLISHERS;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Role parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "publishers", "publisher", "pub" -> PUBLISHERS;
            case "subscribers", "subscriber", "sub" -> SUBSCRIBERS;
            case "all", "both" -> ALL;
            default ->
                throw new IllegalArgumentException("--role must be publishers, subscribers or all, not '" + text + "'");
        };
    }
}
