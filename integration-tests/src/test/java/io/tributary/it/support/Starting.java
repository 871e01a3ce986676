package io.tributary.it.support;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A service started on a thread of its own, for a test that needs two extra services: much of a start is waiting
 * (for Kafka, for session-service, for the health poll), so two started together are healthy sooner than one after
 * the other.
 */
public final class Starting<T> {

    private final CompletableFuture<T> started;

    private Starting(CompletableFuture<T> started) {
        this.started = started;
    }

    /** Starts {@code start} now, on a new thread. */
    public static <T> Starting<T> start(Callable<T> start) {
        CompletableFuture<T> started = new CompletableFuture<>();
        Thread thread = new Thread(
                () -> {
                    try {
                        started.complete(start.call());
                    } catch (Throwable e) {
                        started.completeExceptionally(e);
                    }
                },
                "it-starting");
        thread.setDaemon(true);
        thread.start();
        return new Starting<>(started);
    }

    /** The started service, once its start returned; its exception if it threw. */
    public T get() throws Exception {
        try {
            return started.get(2 * TributaryCluster.HEALTHY_WITHIN.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        } catch (TimeoutException e) {
            throw new IllegalStateException("a service start did not return", e);
        }
    }
}
