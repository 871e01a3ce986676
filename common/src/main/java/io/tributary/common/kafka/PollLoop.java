package io.tributary.common.kafka;

import io.tributary.common.retry.Backoff;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Kafka consumer thread, as every hand-written one of the services runs it: {@link #startLoop} starts the thread
 * once the subclass has its consumer ready; the thread calls {@link #pollOnce} until stopped; a round that throws is
 * logged and retried after the {@link Backoff} (a round that works resets it), unless {@link #retries} says the
 * failure ends the loop; {@link #stop} wakes the consumer and any back-off pause at once and waits a bounded time for
 * the thread, which then runs {@link #onLoopEnd} (close the consumer, commit what is owed) on its own thread, since a
 * Kafka consumer belongs to one thread.
 *
 * <p>Offsets are the subclass's business (some loops commit none); {@link CommitPacer} paces those that do. No Spring
 * here: a subclass that is a Spring lifecycle bean gets {@link #stop} and {@link #isRunning} from this class.
 */
public abstract class PollLoop {

    private final Logger log = LoggerFactory.getLogger(getClass());
    private final String threadName;
    private final boolean daemon;
    private final Backoff backoff;
    private final Duration joinTimeout;
    private volatile boolean running;
    private volatile Thread thread;
    /** What {@link #wakeup} wakes by default. */
    private volatile Consumer<?, ?> consumer;
    /** Counted down by {@link #requestStop}: ends a back-off pause at once. A new one per start. */
    private volatile CountDownLatch stopSignal = new CountDownLatch(1);

    /**
     * @param threadName  the thread's name, also the loop's name in log lines
     * @param daemon      whether the thread may be left running when the JVM exits
     * @param backoff     the wait after a failed round; owned by this loop (and whoever it shares it with on the
     *                    same thread)
     * @param joinTimeout how long {@link #stop} waits for the thread to end
     */
    protected PollLoop(String threadName, boolean daemon, Backoff backoff, Duration joinTimeout) {
        this.threadName = threadName;
        this.daemon = daemon;
        this.backoff = backoff;
        this.joinTimeout = joinTimeout;
    }

    /** One round: poll, handle what came. Throws what it could not handle; the loop decides whether to retry. */
    protected abstract void pollOnce();

    /**
     * Makes a blocked {@link #pollOnce} return at once; called from any thread. By default wakes the consumer given to
     * {@link #startLoop(Consumer)}; a loop with other consumers wakes them.
     */
    protected void wakeup() {
        Consumer<?, ?> c = consumer;
        if (c != null) {
            c.wakeup();
        }
    }

    /** On the loop thread before its first round: say it started. Nothing by default. */
    protected void onLoopStart() {}

    /** On the loop thread once it ends, however it ends: close the consumer. Nothing by default. */
    protected void onLoopEnd() {}

    /** Whether the loop retries after {@code failure} (true) or ends (false, after {@link #onFatal}). */
    protected boolean retries(RuntimeException failure) {
        return true;
    }

    /** A round failed and is retried after {@code retryIn}: logs it (override to say more). */
    protected void onFailure(RuntimeException failure, Duration retryIn) {
        log.warn("{} failed, retrying in {} ms: {}", threadName, retryIn.toMillis(), failure.toString());
    }

    /** A round failed in a way {@link #retries} does not retry: the loop ends after this. */
    protected void onFatal(RuntimeException failure) {
        log.error("{} stopped after a failure it does not retry", threadName, failure);
    }

    /**
     * Starts the thread, which polls {@code consumer} (woken by {@link #stop}); nothing while it runs. Call once the
     * consumer is assigned or subscribed: from then on it belongs to the loop thread.
     */
    protected final void startLoop(Consumer<?, ?> consumer) {
        this.consumer = consumer;
        startLoop();
    }

    /** Starts the thread of a loop that overrides {@link #wakeup}; nothing while it runs. */
    protected final synchronized void startLoop() {
        if (running) {
            return;
        }
        stopSignal = new CountDownLatch(1);
        running = true;
        Thread t = new Thread(this::run, threadName);
        t.setDaemon(daemon);
        thread = t;
        t.start();
    }

    /** The loop's back-off, for a subclass that retries inside a round and must share it. */
    protected final Backoff backoff() {
        return backoff;
    }

    /** True from {@link #startLoop} until stopped or ended by a failure it does not retry. */
    public boolean isRunning() {
        return running;
    }

    /** Whether the loop thread is still there (it may still be closing its consumer after {@link #requestStop}). */
    public boolean isAlive() {
        Thread t = thread;
        return t != null && t.isAlive();
    }

    /** Stops the loop and waits up to the join timeout for its thread to end. */
    public void stop() {
        requestStop();
        awaitStop();
    }

    /** Asks the loop to stop without waiting: wakes the consumer and any back-off pause. Callable from any thread. */
    public final void requestStop() {
        running = false;
        stopSignal.countDown();
        try {
            wakeup();
        } catch (RuntimeException e) {
            log.debug("Waking {} failed: {}", threadName, e.toString());
        }
    }

    /** Waits up to the join timeout for the thread to end; true when it ended. Keeps an interrupt for the caller. */
    public final boolean awaitStop() {
        Thread t = thread;
        if (t == null || t == Thread.currentThread()) {
            return t == null;
        }
        try {
            t.join(joinTimeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (t.isAlive()) {
            log.warn("{} did not stop within {} ms", threadName, joinTimeout.toMillis());
            return false;
        }
        return true;
    }

    /**
     * Waits {@code pause} on the loop thread, returning early when the loop is stopped; true when it waited the whole
     * time. For a subclass that retries inside a round (with the same {@link Backoff}).
     */
    protected final boolean pause(Duration pause) {
        // A stray interrupt must not turn every later pause into a busy loop; stopping uses the stop signal.
        Thread.interrupted();
        try {
            return !stopSignal.await(pause.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            return false;
        }
    }

    private void run() {
        try {
            onLoopStart();
            while (running) {
                try {
                    pollOnce();
                    backoff.reset();
                } catch (RuntimeException e) {
                    // Includes a WakeupException or InterruptException: after stop() it only ends the loop.
                    if (!running) {
                        break;
                    }
                    if (!retries(e)) {
                        onFatal(e);
                        break;
                    }
                    Duration wait = backoff.next();
                    onFailure(e, wait);
                    pause(wait);
                }
            }
        } finally {
            running = false;
            try {
                onLoopEnd();
            } catch (RuntimeException e) {
                log.warn("{} did not close cleanly: {}", threadName, e.toString());
            }
        }
    }
}
