package io.tributary.session.internal;

import io.tributary.session.web.ApiException;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.PessimisticLockingFailureException;

/** What every batch call of the internal API shares: its size bound, and running its transaction again on a deadlock. */
final class BatchCalls {

    private static final Logger log = LoggerFactory.getLogger(BatchCalls.class);
    /** More than a transport node sends in one call (its batches are bounded far below). */
    static final int MAX_BATCH = 10_000;

    private static final int ATTEMPTS = 3;

    private BatchCalls() {}

    /** @throws ApiException 400 when the batch is missing or larger than {@link #MAX_BATCH} */
    static <T> List<T> checked(List<T> requests) {
        if (requests == null) {
            throw ApiException.badRequest("requests are required");
        }
        if (requests.size() > MAX_BATCH) {
            throw ApiException.badRequest("at most " + MAX_BATCH + " requests per batch: " + requests.size());
        }
        return requests;
    }

    /**
     * Shape-checks each request of a batch: a malformed one is logged and handed to {@code malformed} (its index and
     * why) and does not hold up the others.
     *
     * @return the indexes of the well-formed requests, in order
     */
    static <T> List<Integer> wellFormed(
            String what,
            List<T> requests,
            java.util.function.Consumer<T> check,
            java.util.function.BiConsumer<Integer, String> malformed) {
        List<Integer> valid = new java.util.ArrayList<>(requests.size());
        for (int i = 0; i < requests.size(); i++) {
            try {
                check.accept(requests.get(i));
                valid.add(i);
            } catch (ApiException e) {
                log.warn("{} request {} of a batch is malformed: {}", what, requests.get(i), e.getMessage());
                malformed.accept(i, "malformed request: " + e.getMessage());
            }
        }
        return valid;
    }

    /**
     * Runs a batch's transaction, again when PostgreSQL picked it as a deadlock victim against a single-client change
     * that locks rows in another order (batches lock in client id order, so two batches never deadlock each other).
     */
    static <T> T withDeadlockRetry(String what, int size, Supplier<T> transaction) {
        for (int attempt = 1; ; attempt++) {
            try {
                return transaction.get();
            } catch (PessimisticLockingFailureException e) {
                if (attempt == ATTEMPTS) {
                    throw e;
                }
                log.info(
                        "{} batch of {} lost a lock conflict (attempt {}): {}",
                        what,
                        size,
                        attempt,
                        e.getMostSpecificCause().getMessage());
            }
        }
    }
}
