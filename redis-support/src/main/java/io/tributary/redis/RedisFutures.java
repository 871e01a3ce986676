package io.tributary.redis;

import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Waiting for asynchronous commands from a thread that may block (never a Netty event loop). */
public final class RedisFutures {

    private RedisFutures() {}

    /**
     * Waits for the answers of commands sent asynchronously (many in a row travel as one pipeline); the first
     * failure is thrown as the synchronous commands would throw it.
     *
     * @param timeout the longest wait for each answer
     */
    public static void awaitAll(List<? extends Future<?>> futures, Duration timeout) {
        for (Future<?> f : futures) {
            await(f, timeout);
        }
    }

    /** The answer of one asynchronous command, or its failure thrown as the synchronous command would throw it. */
    public static <T> T await(Future<T> future, Duration timeout) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisException("interrupted waiting for Redis", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new RedisException(e.getCause());
        } catch (TimeoutException e) {
            throw new RedisCommandTimeoutException("Redis did not answer within " + timeout.toMillis() + " ms");
        }
    }
}
