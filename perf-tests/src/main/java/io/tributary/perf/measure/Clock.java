package io.tributary.perf.measure;

import java.time.Instant;

/** Wall-clock microseconds: payload stamps are compared across processes, so System.nanoTime would not do. */
public final class Clock {

    private Clock() {}

    public static long nowMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}
