package io.tributary.routing.fanout;

import io.tributary.common.kafka.TopicNames;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The downlink topics that exist, so that the router never sends to the topic of a node that is gone: the producer
 * would block on its metadata for up to {@code max.block.ms} and stall every other delivery.
 *
 * <p>Refreshed in the background every {@code refreshInterval} with Admin {@code listTopics}. A topic missing from
 * the list triggers a synchronous refresh: always the first time it is missed, so that a node that has just started
 * is found at its first delivery (its clients may already hold a SUBACK); after that, at most once per
 * {@code missRefreshInterval}, so that the subscriptions of a node that is gone do not cost a request per publish.
 *
 * <p>{@link #exists} is called by the routing loop thread only; the background refresh completes on the Admin's
 * thread.
 */
public final class DownlinkTopicCache {

    private static final Logger log = LoggerFactory.getLogger(DownlinkTopicCache.class);
    /** Bound of {@link #confirmedMissing}; past it the set starts over (costing one extra refresh per topic). */
    private static final int MAX_REMEMBERED_MISSING = 10_000;

    private final Admin admin;
    private final long refreshIntervalNanos;
    private final long missRefreshIntervalNanos;
    private final Duration requestTimeout;
    private final LongSupplier nanoClock;
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private final AtomicBoolean failing = new AtomicBoolean();
    private volatile Set<String> known = Set.of();
    private volatile long lastRefreshStart;
    /** Start time of the listing {@link #known} comes from: an older listing finishing late must not replace it. */
    private long knownSince;

    private long lastMissRefresh;
    /** Topics a synchronous refresh did not find: their next misses are rate-limited. */
    private final Set<String> confirmedMissing = new HashSet<>();

    public DownlinkTopicCache(
            Admin admin,
            Duration refreshInterval,
            Duration missRefreshInterval,
            Duration requestTimeout,
            LongSupplier nanoClock) {
        this.admin = admin;
        this.refreshIntervalNanos = refreshInterval.toNanos();
        this.missRefreshIntervalNanos = missRefreshInterval.toNanos();
        this.requestTimeout = requestTimeout;
        this.nanoClock = nanoClock;
        long now = nanoClock.getAsLong();
        this.lastRefreshStart = now - refreshIntervalNanos;
        this.lastMissRefresh = now - missRefreshIntervalNanos;
        this.knownSince = now - refreshIntervalNanos;
    }

    /** Whether the downlink topic exists, refreshing the list first when it is not known (see class comment). */
    public boolean exists(String downlinkTopic) {
        if (known.contains(downlinkTopic)) {
            return true;
        }
        long now = nanoClock.getAsLong();
        boolean firstMiss = !confirmedMissing.contains(downlinkTopic);
        if (!firstMiss && now - lastMissRefresh < missRefreshIntervalNanos) {
            return false;
        }
        lastMissRefresh = now;
        refreshNow();
        if (known.contains(downlinkTopic)) {
            confirmedMissing.remove(downlinkTopic);
            return true;
        }
        if (confirmedMissing.size() >= MAX_REMEMBERED_MISSING) {
            confirmedMissing.clear();
        }
        confirmedMissing.add(downlinkTopic);
        return false;
    }

    /** Starts a background refresh when the last one is older than the refresh interval. Never blocks. */
    public void refreshIfDue() {
        long now = nanoClock.getAsLong();
        if (now - lastRefreshStart < refreshIntervalNanos || !refreshing.compareAndSet(false, true)) {
            return;
        }
        lastRefreshStart = now;
        admin.listTopics().names().whenComplete((names, error) -> {
            try {
                update(now, names, error);
            } finally {
                refreshing.set(false);
            }
        });
    }

    /** Number of downlink topics known, for status reports. */
    public int knownCount() {
        return known.size();
    }

    private void refreshNow() {
        long start = nanoClock.getAsLong();
        lastRefreshStart = start;
        KafkaFuture<Set<String>> names = admin.listTopics().names();
        try {
            update(start, names.get(requestTimeout.toMillis(), TimeUnit.MILLISECONDS), null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            update(start, null, e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            update(start, null, e);
        }
    }

    /** Runs on the loop thread (synchronous refresh) or on the Admin's thread (background refresh). */
    private synchronized void update(long start, Set<String> names, Throwable error) {
        if (error != null) {
            if (failing.compareAndSet(false, true)) {
                log.warn("Cannot list downlink topics, keeping the {} known ones: {}", known.size(), error.toString());
            }
            return;
        }
        if (failing.compareAndSet(true, false)) {
            log.info("Listing downlink topics works again");
        }
        Set<String> downlinks = new HashSet<>();
        for (String name : names) {
            if (name.startsWith(TopicNames.DOWNLINK_PREFIX)) {
                downlinks.add(name);
            }
        }
        if (start - knownSince >= 0) {
            knownSince = start;
            known = Set.copyOf(downlinks);
        }
    }
}
