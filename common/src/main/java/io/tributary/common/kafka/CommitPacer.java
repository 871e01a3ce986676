package io.tributary.common.kafka;

import java.time.Duration;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Paces a consumer group member's offset commits: at most one asynchronous commit per interval, because each commit
 * is a write to the group coordinator's log (one per poll cost the broker a measurable share of its CPU, see
 * docs/benchmarks-history.md section 7). The loop that owns it commits synchronously itself, before partitions are revoked
 * and on close, and then calls {@link #committed}. Lives on the loop thread only.
 */
public final class CommitPacer {

    private static final Logger log = LoggerFactory.getLogger(CommitPacer.class);

    private final Duration interval;
    private final LongSupplier nanoClock;
    private long lastCommitNanos;
    /** Whether something was handled since the last commit. */
    private boolean pending;

    public CommitPacer(Duration interval) {
        this(interval, System::nanoTime);
    }

    CommitPacer(Duration interval, LongSupplier nanoClock) {
        this.interval = interval;
        this.nanoClock = nanoClock;
        this.lastCommitNanos = nanoClock.getAsLong();
    }

    /** Records that offsets were handled and are owed a commit. */
    public void handled() {
        pending = true;
    }

    /** Whether offsets are owed a commit. */
    public boolean pending() {
        return pending;
    }

    /** Records that a synchronous commit covered everything handled so far. */
    public void committed() {
        pending = false;
    }

    /**
     * Commits {@code offsets} without waiting when something is owed and the interval has passed since the last
     * commit; a failure is only logged (a later commit covers it, or the records are read again: at least once). The
     * offsets are asked for only when a commit is due.
     */
    public void commitIfDue(Consumer<?, ?> consumer, Supplier<Map<TopicPartition, OffsetAndMetadata>> offsets) {
        long now = nanoClock.getAsLong();
        if (!pending || now - lastCommitNanos < interval.toNanos()) {
            return;
        }
        lastCommitNanos = now;
        pending = false;
        consumer.commitAsync(offsets.get(), (committed, error) -> {
            if (error != null) {
                log.debug(
                        "Asynchronous commit of {} failed (a later commit covers it): {}", committed, error.toString());
            }
        });
    }
}
