package io.tributary.perf.scenario;

import java.util.Locale;

/** Where in its period each publisher of a group sends (the scenario's {@code phase}). */
public enum PublishPhase {
    /** Each publisher at its own random point of the period: the group's load is smooth. The default. */
    SPREAD,
    /**
     * Every publisher on the same instants, back to back, as meters reporting on the tick do: a group of N at R msg/s
     * sends bursts of N messages R times a second. Aligned groups of the same rate share one grid.
     */
    ALIGNED;

    /** {@code spread} or {@code aligned}. */
    public static PublishPhase parse(String text) {
        for (PublishPhase p : values()) {
            if (p.name().toLowerCase(Locale.ROOT).equals(text.trim().toLowerCase(Locale.ROOT))) {
                return p;
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a phase: use spread or aligned");
    }
}
