package io.tributary.perf.scenario;

import java.time.Duration;

/** Durations as people write them in scenario files and on the command line: 500ms, 30s, 5m, 24h, 1d, or seconds. */
public final class Durations {

    private Durations() {}

    /** The duration, or null when the text is not one. */
    public static Duration parse(String text) {
        return YamlFields.parseDuration(text);
    }
}
