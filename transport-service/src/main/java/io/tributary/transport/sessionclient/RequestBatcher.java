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
 * <p>{@link #submitAll} hands over a group: requests that must be answered in the order given, such as the
 * SUBSCRIBEs one client pipelined. A group is never split: it travels whole in one call (which may then carry up to
 * a group more than {@code maxBatch}), so the callee sees its requests next to each other, in order.
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

    /** A group of requests submitted together (one, mostly): they go in the same call, in order. */
    private record Pending<Q, R>(List<Q> requests, List<CompletableFuture<R>> results, long queuedAt) {}

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
        return submitAll(List.of(request)).get(0);
    }

    /**
     * Requests to be sent in one call, next to each other and in this order.
     *
     * @return one answer per request, in order
     */
    public List<CompletableFuture<R>> submitAll(List<Q> requests) {
        int n = requests.size();
        List<CompletableFuture<R>> results = new ArrayList<>(n);
        if (queued.addAndGet(n) > maxQueued) {
            queued.addAndGet(-n);
            for (int i = 0; i < n; i++) {
                results.add(CompletableFuture.failedFuture(new OverloadedException(
                        maxQueued + " " + name + " requests are waiting for session-service already")));
            }
            return results;
        }
        for (int i = 0; i < n; i++) {
            results.add(new CompletableFuture<>());
        }
        queue.add(new Pending<>(List.copyOf(requests), results, nanoTime.getAsLong()));
        drain();
        return results;
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
        int requests = 0;
        Pending<Q, R> p;
        while (requests < maxBatch && (p = queue.poll()) != null) {
            queued.addAndGet(-p.requests().size());
            if (now - p.queuedAt() > maxWaitNanos) {
                // Its client has most likely given up; serving it would only delay those still waiting.
                OverloadedException late = new OverloadedException(
                        name + " request waited over " + maxWaitNanos / 1_000_000 + " ms for session-service");
                p.results().forEach(r -> r.completeExceptionally(late));
                continue;
            }
            batch.add(p);
            requests += p.requests().size();
        }
        return batch;
    }

    private void send(List<Pending<Q, R>> batch) {
        List<Q> requests = new ArrayList<>();
        List<CompletableFuture<R>> results = new ArrayList<>();
        for (Pending<Q, R> p : batch) {
            requests.addAll(p.requests());
            results.addAll(p.results());
        }
        long started = nanoTime.getAsLong();
        CompletableFuture<List<R>> answers;
        try {
            answers = CompletableFuture.supplyAsync(() -> call.apply(requests), sender)
                    .thenCompose(f -> f);
        } catch (RuntimeException e) {
            answers = CompletableFuture.failedFuture(e);
        }
        answers.whenComplete((answered, failure) -> {
            listener.completed(requests.size(), nanoTime.getAsLong() - started, failure != null);
            try {
                for (int i = 0; i < results.size(); i++) {
                    CompletableFuture<R> result = results.get(i);
                    if (failure != null) {
                        result.completeExceptionally(failure);
                    } else if (answered == null || answered.size() != requests.size()) {
                        result.completeExceptionally(new IllegalStateException(name + " batch of "
                                + requests.size() + " answered with "
                                + (answered == null ? "nothing" : answered.size() + " results")));
                    } else {
                        result.complete(answered.get(i));
                    }
                }
            } finally {
                inFlight.decrementAndGet();
                drain();
            }
        });
    }
}
