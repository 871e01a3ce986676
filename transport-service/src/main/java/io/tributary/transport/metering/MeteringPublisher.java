package io.tributary.transport.metering;

import io.tributary.common.concurrent.DaemonThreads;
import io.tributary.common.kafka.TopicNames;
import io.tributary.common.metering.MeteringRecords;
import io.tributary.common.metering.UsageDelta;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends this node's usage deltas every {@code TRIBUTARY_METERING_INTERVAL}, on its own thread (never an event loop):
 * one {@link UsageDelta} per tenant with activity to {@link TopicNames#METERING_DELTAS}, keyed by tenant. Intervals
 * end at every full hour as well, so each delta lies in one hour. On shutdown the last interval is sent and flushed.
 *
 * <p>A delta Kafka reports as not stored is not sent again: the producer is idempotent and a timed-out batch may still
 * have been written, so a second copy with a new number could be counted twice. Metering under-counts then (logged),
 * and never double-counts. A send refused before anything left the node goes back into the meter.
 */
public final class MeteringPublisher implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MeteringPublisher.class);

    private final TenantMeters meters;
    private final Producer<byte[], byte[]> producer;
    private final Duration interval;
    private final LongSupplier clockMillis;
    private final ScheduledExecutorService timer;
    /** The start of the interval being counted (timer thread). */
    private long intervalStart;

    private volatile boolean failing;

    public MeteringPublisher(
            TenantMeters meters, Producer<byte[], byte[]> producer, Duration interval, LongSupplier clockMillis) {
        this.meters = meters;
        this.producer = producer;
        this.interval = interval;
        this.clockMillis = clockMillis;
        this.intervalStart = clockMillis.getAsLong();
        this.timer = DaemonThreads.scheduler("tributary-metering");
    }

    public void start() {
        scheduleNext();
        log.info("Metering: usage deltas to {} every {}", TopicNames.METERING_DELTAS, interval);
    }

    /** The next tick: one interval on, or the next full hour if that comes first. */
    private void scheduleNext() {
        long now = clockMillis.getAsLong();
        long nextHour = Instant.ofEpochMilli(now)
                .truncatedTo(ChronoUnit.HOURS)
                .plus(1, ChronoUnit.HOURS)
                .toEpochMilli();
        long delay = Math.max(1, Math.min(interval.toMillis(), nextHour - now));
        try {
            timer.schedule(this::tick, delay, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // closed meanwhile
        }
    }

    private void tick() {
        try {
            sendOnce();
        } catch (RuntimeException e) {
            log.warn("Metering interval not sent: {}", e.toString());
        } finally {
            scheduleNext();
        }
    }

    /** Sends what was counted since the last time, attributed to the hour the interval began in. */
    synchronized List<UsageDelta> sendOnce() {
        Instant hour = UsageDelta.hourOf(Instant.ofEpochMilli(intervalStart));
        intervalStart = clockMillis.getAsLong();
        List<UsageDelta> deltas = meters.take(hour);
        for (UsageDelta delta : deltas) {
            ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(
                    TopicNames.METERING_DELTAS,
                    MeteringRecords.deltaKey(delta.tenant()),
                    MeteringRecords.encode(delta));
            try {
                producer.send(record, (metadata, failure) -> sent(delta, failure));
            } catch (RuntimeException e) {
                // Refused before it left: surely not stored, so it goes with the next interval.
                meters.giveBack(delta);
                log.warn("Metering delta of tenant {} refused by the producer, kept: {}", delta.tenant(), e.toString());
            }
        }
        return deltas;
    }

    private void sent(UsageDelta delta, Exception failure) {
        if (failure != null && !failing) {
            failing = true;
            log.warn(
                    "Metering delta {} of tenant {} not stored by Kafka; its usage is not counted: {}",
                    delta.sequence(),
                    delta.tenant(),
                    failure.toString());
        } else if (failure == null && failing) {
            failing = false;
            log.info("Metering deltas stored again");
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
            // A graceful stop loses nothing: the last partial interval goes out before the producer closes.
            sendOnce();
            producer.flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.warn("Last metering interval not sent at shutdown: {}", e.toString());
        }
    }
}
