package io.tributary.kafka.sessionclient;

import io.tributary.common.concurrent.DaemonThreads;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * A copy of something session-service holds (the block list, the tenants' publish quotas), fetched on a thread of
 * its own every {@code refresh} and at start. A node or router that cannot reach session-service keeps what it has; the
 * failure is logged once (INFO before the first answer, while session-service may be starting too; WARN after), and
 * so is the recovery.
 *
 * @param <T> the answer of one fetch
 */
public abstract class SessionServicePoller<T> implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(SessionServicePoller.class);

    /** What is fetched, to begin each log line ("Block list"). */
    private final String what;

    private final String threadName;
    private final Duration refresh;
    private ScheduledExecutorService timer;
    private volatile boolean fetched;
    private volatile boolean failing;

    protected SessionServicePoller(String what, String threadName, Duration refresh) {
        this.what = what;
        this.threadName = threadName;
        this.refresh = refresh;
    }

    /** Asks session-service once. */
    protected abstract CompletableFuture<T> fetch();

    /** Takes an answer in; {@code first} for the first one since start. */
    protected abstract void apply(T answer, boolean first);

    /** How many entries the node knows now, for the line that says it keeps them. */
    protected abstract int known();

    @Override
    public void start() {
        timer = DaemonThreads.scheduler(threadName);
        timer.scheduleWithFixedDelay(this::poll, 0, refresh.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One fetch; waits for the answer (on the poller's own thread) so fetches never overlap. */
    public final void poll() {
        try {
            T answer = fetch().get(refresh.toMillis() + 10_000, TimeUnit.MILLISECONDS);
            if (failing) {
                failing = false;
                log.info("{}: session-service answers again", what);
            }
            apply(answer, !fetched);
            fetched = true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            if (!failing) {
                failing = true;
                if (!fetched) {
                    log.info("{}: not fetched yet ({}), retrying every {}", what, e.toString(), refresh);
                } else {
                    log.warn("{}: could not fetch, keeping the {} known: {}", what, known(), e.toString());
                }
            }
        }
    }

    @Override
    public void stop() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    @Override
    public boolean isRunning() {
        return timer != null && !timer.isShutdown();
    }
}
