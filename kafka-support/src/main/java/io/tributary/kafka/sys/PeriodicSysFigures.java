package io.tributary.kafka.sys;

import io.tributary.common.concurrent.DaemonThreads;
import io.tributary.common.kafka.RetainedRecordFormat;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The schedule both services' {@code $SYS} publishers share: every {@code TRIBUTARY_SYS_INTERVAL}, on a thread of
 * its own (never an event loop or a poll loop), it turns the current figures (topic → payload) into records and
 * sends them. A scheduled task that throws is never run again, so a failure is caught and logged; a send that Kafka
 * refuses is logged once, and once more when sends succeed again, rather than once per figure per interval.
 */
public final class PeriodicSysFigures implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PeriodicSysFigures.class);

    /** Sends one record and reports its outcome (null on success), however the service talks to Kafka. */
    @FunctionalInterface
    public interface Sender {
        void send(ProducerRecord<byte[], byte[]> record, Consumer<Exception> outcome);
    }

    /** Makes the record of one figure at the given wall-clock time. */
    @FunctionalInterface
    public interface RecordMaker {
        ProducerRecord<byte[], byte[]> record(String topic, String payload, long nowMillis);
    }

    private final String owner;
    private final Duration interval;
    private final Supplier<Map<String, String>> figures;
    private final RecordMaker records;
    private final Sender sender;
    private final ScheduledExecutorService timer;
    private volatile boolean failing;

    /**
     * @param owner whose figures these are, for the log ("this node", "this router")
     * @param interval the period; zero disables publishing
     */
    public PeriodicSysFigures(
            String owner,
            Duration interval,
            Supplier<Map<String, String>> figures,
            RecordMaker records,
            Sender sender) {
        this.owner = owner;
        this.interval = interval;
        this.figures = figures;
        this.records = records;
        this.sender = sender;
        this.timer = interval.isZero() ? null : DaemonThreads.scheduler("tributary-sys");
    }

    /** Whether figures are published at all (the interval is not zero). */
    public boolean enabled() {
        return timer != null;
    }

    /** Starts publishing after {@code firstDelay}, then every interval; only logs when disabled. */
    public void start(Duration firstDelay) {
        if (timer == null) {
            log.info("$SYS figures of {} disabled (TRIBUTARY_SYS_INTERVAL=0)", owner);
            return;
        }
        timer.scheduleAtFixedRate(this::publishOnce, firstDelay.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Sends the figures as they stand now. */
    public void publishOnce() {
        try {
            long now = System.currentTimeMillis();
            // $SYS figures are retained: each record's copy goes to the retained topic too.
            figures.get()
                    .forEach((topic, payload) -> RetainedRecordFormat.withCopies(
                                    List.of(records.record(topic, payload, now)))
                            .forEach(record -> sender.send(record, this::sent)));
        } catch (RuntimeException e) {
            log.warn("Could not publish the $SYS figures of {}: {}", owner, e.toString());
        }
    }

    private void sent(Exception failure) {
        if (failure != null && !failing) {
            failing = true;
            log.warn(
                    "$SYS figures of {} not stored by Kafka (retried every {}): {}",
                    owner,
                    interval,
                    failure.toString());
        } else if (failure == null && failing) {
            failing = false;
            log.info("$SYS figures of {} published again", owner);
        }
    }

    /** Stops the schedule (a figure being sent may still complete). */
    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
