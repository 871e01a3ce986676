package io.tributary.routing.feed;

import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports each malformed feed record once. The feed is read again from the beginning after every reassignment or
 * restart, so without this the same bad record would be logged over and over; the memory is bounded, the oldest
 * positions are forgotten first.
 */
final class MalformedRecordLog {

    private static final Logger log = LoggerFactory.getLogger(MalformedRecordLog.class);
    private static final int REMEMBERED = 10_000;

    private final Map<String, Boolean> reported = new LinkedHashMap<>(64, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > REMEMBERED;
        }
    };

    /** Logs the record unless it was reported before; returns whether it was new. */
    boolean report(String topic, int partition, long offset, RuntimeException problem) {
        String position = topic + "-" + partition + "@" + offset;
        if (reported.putIfAbsent(position, Boolean.TRUE) != null) {
            return false;
        }
        log.warn(
                "Skipping malformed subscription record (topic {}, partition {}, offset {}): {}",
                topic,
                partition,
                offset,
                problem.getMessage());
        return true;
    }
}
