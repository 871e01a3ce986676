package io.tributary.routing.loop;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.routing.fanout.DeliveryFailedException;

/**
 * Waits between attempts when Kafka fails, doubling the wait up to a ceiling, and logs once per change of state
 * (first failure of a burst, recovery) rather than at every attempt. Never gives up: the router must outlive any
 * Kafka outage.
 */
final class RetryPolicy {

    private static final Logger log = LoggerFactory.getLogger(RetryPolicy.class);

    private final Duration min;
    private final Duration max;
    private final RoutingStatus status;
    private final CountDownLatch stopSignal;
    private Duration next;
    private boolean failing;

    RetryPolicy(Duration min, Duration max, RoutingStatus status, CountDownLatch stopSignal) {
        this.min = min;
        this.max = max;
        this.status = status;
        this.stopSignal = stopSignal;
        this.next = min;
    }

    /** Records a failure of {@code what} and waits before the next attempt (returns early when stopping). */
    void failedThenWait(String what, Throwable error) {
        String description = what + ": " + error;
        if (!failing) {
            failing = true;
            if (causedByKafka(error)) {
                log.warn("{}; retrying with backoff up to {} until it works", description, max);
            } else {
                // Not a Kafka condition: likely a bug, so keep the stack trace.
                log.error("{}; retrying with backoff up to {} until it works", description, max, error);
            }
        } else {
            log.debug("Still failing: {}", description);
        }
        status.failed(description);
        // A stray interrupt must not turn every later wait into a busy loop; stopping uses the stop signal.
        Thread.interrupted();
        try {
            stopSignal.await(next.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            log.debug("Interrupted while waiting to retry");
        }
        Duration doubled = next.multipliedBy(2);
        next = doubled.compareTo(max) > 0 ? max : doubled;
    }

    private static boolean causedByKafka(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof KafkaException || t instanceof DeliveryFailedException
                    || t instanceof java.util.concurrent.TimeoutException) {
                return true;
            }
        }
        return false;
    }

    /** Records that an attempt worked: ends a failure burst. */
    void succeeded() {
        if (failing) {
            failing = false;
            log.info("Kafka operations work again");
        }
        next = min;
        status.enter(RoutingStatus.State.RUNNING);
    }
}
