package io.tributary.routing.loop;

import io.tributary.common.retry.Backoff;
import io.tributary.routing.fanout.DeliveryFailedException;
import java.time.Duration;
import java.util.function.Consumer;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the router does when Kafka fails: logs once per change of state (first failure of a burst, recovery) rather
 * than at every attempt, keeps {@link RoutingStatus} true, and waits between attempts with the routing loop's
 * {@link Backoff} (shared by the loop and its workers, all on the loop thread). Never gives up: the router must
 * outlive any Kafka outage.
 */
final class RetryPolicy {

    private static final Logger log = LoggerFactory.getLogger(RetryPolicy.class);

    private final Backoff backoff;
    private final RoutingStatus status;
    /** Waits on the loop thread, returning early when the loop stops. */
    private final Consumer<Duration> pause;

    private boolean failing;

    RetryPolicy(Backoff backoff, RoutingStatus status, Consumer<Duration> pause) {
        this.backoff = backoff;
        this.status = status;
        this.pause = pause;
    }

    /** Records a failure of {@code what} and waits before the next attempt (returns early when stopping). */
    void failedThenWait(String what, Throwable error) {
        failed(what, error);
        pause.accept(backoff.next());
    }

    /** Records a failure of {@code what}; the caller waits {@link Backoff#next()} before the next attempt. */
    void failed(String what, Throwable error) {
        String description = what + ": " + error;
        if (!failing) {
            failing = true;
            if (causedByKafka(error)) {
                log.warn("{}; retrying with backoff up to {} until it works", description, backoff.max());
            } else {
                // Not a Kafka condition: likely a bug, so keep the stack trace.
                log.error("{}; retrying with backoff up to {} until it works", description, backoff.max(), error);
            }
        } else {
            log.debug("Still failing: {}", description);
        }
        status.failed(description);
    }

    private static boolean causedByKafka(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof KafkaException
                    || t instanceof DeliveryFailedException
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
        backoff.reset();
        status.enter(RoutingStatus.State.RUNNING);
    }
}
