package io.tributary.transport.limits;

import io.tributary.common.net.IpRange;
import io.tributary.common.net.IpRangeSet;
import io.tributary.common.session.SessionApi;
import io.tributary.transport.sessionclient.SessionServiceClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Keeps the node's copy of the block list's IP entries, fetched from session-service every {@code refresh} (with the
 * version it has, so an unchanged list costs a few bytes), so a blocked address is refused at its CONNECT without a
 * session-service call. The copy only saves work: session-service checks the whole block list at every CONNECT it
 * is asked about, and closes live connections itself when an entry is added, so a node whose copy is a few seconds
 * old (or that cannot reach session-service, and keeps its last copy) lets no blocked client in. Chosen over a
 * compacted Kafka topic read by every node: no extra topic and consumer per node, no catch-up at start-up, and the
 * list is small.
 */
public final class BlockListPoller implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(BlockListPoller.class);

    private final SessionServiceClient sessions;
    private final ConnectAdmission admission;
    private final Duration refresh;
    private ScheduledExecutorService timer;
    private volatile String version;
    private volatile boolean failing;

    public BlockListPoller(SessionServiceClient sessions, ConnectAdmission admission, Duration refresh) {
        this.sessions = sessions;
        this.admission = admission;
        this.refresh = refresh;
    }

    @Override
    public void start() {
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "block-list-poller");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::poll, 0, refresh.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One fetch; waits for the answer (on the poller's own thread) so fetches never overlap. */
    void poll() {
        try {
            SessionApi.BlockedIps answer =
                    sessions.blockedIps(version).get(refresh.toMillis() + 10_000, TimeUnit.MILLISECONDS);
            if (failing) {
                failing = false;
                log.info("Block list: session-service answers again");
            }
            if (answer.ranges() == null) {
                return;
            }
            List<IpRange> ranges = new ArrayList<>(answer.ranges().size());
            for (String r : answer.ranges()) {
                try {
                    ranges.add(IpRange.parse(r));
                } catch (IllegalArgumentException e) {
                    log.warn("Block list: entry '{}' is not an IP range, ignored: {}", r, e.getMessage());
                }
            }
            admission.blockedIps(new IpRangeSet(ranges));
            if (version != null || !ranges.isEmpty()) {
                log.info("Block list: {} IP entries (version {})", ranges.size(), answer.version());
            }
            version = answer.version();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            if (!failing) {
                failing = true;
                if (version == null) {
                    // Usual while session-service starts too; session-service checks every CONNECT anyway.
                    log.info("Block list: not fetched yet ({}), retrying every {}", e.toString(), refresh);
                } else {
                    log.warn(
                            "Block list: could not fetch the IP entries, keeping the {} known: {}",
                            admission.blockedIps().size(),
                            e.toString());
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
