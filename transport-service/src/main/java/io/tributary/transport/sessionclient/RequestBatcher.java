package io.tributary.transport.sessionclient;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Gathers the requests of many connections into few calls ("natural batching"): a request goes out at once while
 * fewer than {@code maxInFlight} calls are under way; otherwise it waits, and everything that waited goes in the next
 * call when one completes. At a trickle each request travels alone with no added delay; in a storm a call carries up
 * to {@code maxBatch} requests, so the cost per request (a round trip, a database commit) is shared.
 *
 * <p>Overload is refused fast, never queued without bound: a request beyond {@code maxQueued} waiting ones, or one that
 * waited longer than {@code maxWaitNanos} before its call could go out, fails with {@link OverloadedException}.
 * Thread-safe and lock-free; results complete on the thread that completes the call's future.
 *
 * @param <Q> request
 * @param <R> the answer to one request
 */
public final class RequestBatcher<Q, R> {

    /** Too many requests are waiting: refused without being sent. */
    public static final class OverloadedException extends RuntimeException {
        public OverloadedException(String message) {
            super(message, null, false, false);
        }
    }

    /** Told of every batch call when it completes (metrics). */
    @FunctionalInterface
    public interface CallListener {
        void completed(int requests, long nanos, boolean failed);

        CallListener NONE = (requests, nanos, failed) -> {};
    }

    private record Pending<Q, R>(Q request, CompletableFuture<R> result, long queuedAt) {}

    private final String name;
    private final Function<List<Q>, CompletableFuture<List<R>>> call;
    private final int maxInFlight;
    private final int maxBatch;
    private final int maxQueued;
    private final long maxWaitNanos;
    private final LongSupplier nanoTime;
    private final java.util.concurrent.Executor sender;
    private volatile CallListener listener = CallListener.NONE;
    private final ConcurrentLinkedQueue<Pending<Q, R>> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();

    /**
     * @param call   sends a batch; its future completes with one answer per request, in order, or fails for all
     * @param sender where a call is started (encoding a batch is work no event loop should do); the thread that
     *               submits or completes a call only hands it over
     */
    public RequestBatcher(
            String name,
            Function<List<Q>, CompletableFuture<List<R>>> call,
            int maxInFlight,
            int maxBatch,
            int maxQueued,
            long maxWaitNanos,
            LongSupplier nanoTime,
            java.util.concurrent.Executor sender) {
        this.sender = sender;
        if (maxInFlight < 1 || maxBatch < 1 || maxQueued < 1 || maxWaitNanos <= 0) {
            throw new IllegalArgumentException("batcher limits must be positive");
        }
        this.name = name;
        this.call = call;
        this.maxInFlight = maxInFlight;
        this.maxBatch = maxBatch;
        this.maxQueued = maxQueued;
        this.maxWaitNanos = maxWaitNanos;
        this.nanoTime = nanoTime;
    }

    public CompletableFuture<R> submit(Q request) {
        if (queued.incrementAndGet() > maxQueued) {
            queued.decrementAndGet();
            return CompletableFuture.failedFuture(new OverloadedException(
                    maxQueued + " " + name + " requests are waiting for session-service already"));
        }
        CompletableFuture<R> result = new CompletableFuture<>();
        queue.add(new Pending<>(request, result, nanoTime.getAsLong()));
        drain();
        return result;
    }

    public void listener(CallListener listener) {
        this.listener = listener;
    }

    /** Requests waiting for a call (for metrics). */
    public int waiting() {
        return queued.get();
    }

    /** Calls under way (for metrics). */
    public int inFlight() {
        return inFlight.get();
    }

    private void drain() {
        while (true) {
            int running = inFlight.get();
            if (running >= maxInFlight || queue.isEmpty()) {
                return;
            }
            if (!inFlight.compareAndSet(running, running + 1)) {
                continue;
            }
            List<Pending<Q, R>> batch = take();
            if (batch.isEmpty()) {
                inFlight.decrementAndGet();
                continue;
            }
            send(batch);
        }
    }

    private List<Pending<Q, R>> take() {
        long now = nanoTime.getAsLong();
        List<Pending<Q, R>> batch = new ArrayList<>(Math.min(maxBatch, Math.max(1, queued.get())));
        Pending<Q, R> p;
        while (batch.size() < maxBatch && (p = queue.poll()) != null) {
            queued.decrementAndGet();
            if (now - p.queuedAt() > maxWaitNanos) {
                // Its client has most likely given up; serving it would only delay those still waiting.
                p.result()
                        .completeExceptionally(new OverloadedException(
                                name + " request waited over " + maxWaitNanos / 1_000_000 + " ms for session-service"));
                continue;
            }
            batch.add(p);
        }
        return batch;
    }

    private void send(List<Pending<Q, R>> batch) {
        List<Q> requests = new ArrayList<>(batch.size());
        batch.forEach(p -> requests.add(p.request()));
        long started = nanoTime.getAsLong();
        CompletableFuture<List<R>> answers;
        try {
            answers = CompletableFuture.supplyAsync(() -> call.apply(requests), sender)
                    .thenCompose(f -> f);
        } catch (RuntimeException e) {
            answers = CompletableFuture.failedFuture(e);
        }
        answers.whenComplete((results, failure) -> {
            listener.completed(batch.size(), nanoTime.getAsLong() - started, failure != null);
            try {
                for (int i = 0; i < batch.size(); i++) {
                    CompletableFuture<R> result = batch.get(i).result();
                    if (failure != null) {
                        result.completeExceptionally(failure);
                    } else if (results == null || results.size() != batch.size()) {
                        result.completeExceptionally(new IllegalStateException(name + " batch of " + batch.size()
                                + " answered with " + (results == null ? "nothing" : results.size() + " results")));
                    } else {
                        result.complete(results.get(i));
                    }
                }
            } finally {
                inFlight.decrementAndGet();
                drain();
            }
        });
    }
}
