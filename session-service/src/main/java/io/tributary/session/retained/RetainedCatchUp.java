package io.tributary.session.retained;

import io.tributary.common.kafka.TopicNames;
import io.tributary.session.config.SessionServiceProperties;
import io.tributary.session.kafka.FeedTopics;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.springframework.stereotype.Component;

/**
 * Makes a SUBSCRIBE see every retained PUBLISH acknowledged before it arrived: {@link #mark()} asks the end offsets
 * of the retained topic when the SUBSCRIBE arrives (a retained PUBLISH is acknowledged only once its copy there is
 * stored); {@link #await} waits (bounded) until the retained consumer group
 * has written PostgreSQL up to them. Partitions this instance consumes are checked in memory, the others against
 * the group's committed offsets (committed only after the database write).
 */
@Component
public class RetainedCatchUp {

    private static final long LOCAL_CHECK_MS = 5;
    private static final long GROUP_CHECK_MS = 50;

    private final Admin admin;
    private final FeedTopics topics;
    private final RetainedProgress progress;
    private final String group;
    private final Duration timeout;

    public RetainedCatchUp(
            Admin admin, FeedTopics topics, RetainedProgress progress, SessionServiceProperties properties) {
        this.admin = admin;
        this.topics = topics;
        this.progress = progress;
        this.group = properties.retained().consumerGroup();
        this.timeout = properties.retained().catchUpTimeout();
    }

    /**
     * End offsets of the retained topic, asked now and answered later: the SUBSCRIBE's database work runs while the
     * request is under way (one Kafka round trip less on the SUBACK path). Fails with a timeout when Kafka cannot say
     * within the catch-up timeout.
     */
    public CompletableFuture<Map<TopicPartition, Long>> mark() {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (int p = 0; p < topics.retainedPartitions(); p++) {
            request.put(new TopicPartition(TopicNames.RETAINED, p), OffsetSpec.latest());
        }
        return admin.listOffsets(request)
                .all()
                .toCompletionStage()
                .toCompletableFuture()
                .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .thenApply(ends -> {
                    Map<TopicPartition, Long> out = new HashMap<>();
                    ends.forEach((p, info) -> out.put(p, info.offset()));
                    return out;
                });
    }

    /**
     * Whether this instance's retained store has written up to {@code targets} already: no wait and no Kafka call, so
     * false also for partitions another instance consumes ({@link #await} asks the group for those).
     */
    public boolean reached(Map<TopicPartition, Long> targets) {
        for (Map.Entry<TopicPartition, Long> target : targets.entrySet()) {
            Long written = progress.writtenUpTo(target.getKey());
            if (target.getValue() > 0 && (written == null || written < target.getValue())) {
                return false;
            }
        }
        return true;
    }

    /** @return true when the retained store reached {@code targets}, false after the timeout */
    public boolean await(Map<TopicPartition, Long> targets) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<TopicPartition, Long> pending = new HashMap<>(targets);
        pending.values().removeIf(end -> end <= 0);
        long nextGroupCheck = 0;
        while (true) {
            pending.entrySet().removeIf(e -> {
                Long written = progress.writtenUpTo(e.getKey());
                return written != null && written >= e.getValue();
            });
            if (pending.isEmpty()) {
                return true;
            }
            long now = System.nanoTime();
            if (now - deadline >= 0) {
                return false;
            }
            if (now - nextGroupCheck >= 0) {
                nextGroupCheck = now + TimeUnit.MILLISECONDS.toNanos(GROUP_CHECK_MS);
                removeCommitted(pending, deadline);
                if (pending.isEmpty()) {
                    return true;
                }
            }
            Thread.sleep(LOCAL_CHECK_MS);
        }
    }

    private void removeCommitted(Map<TopicPartition, Long> pending, long deadline) throws InterruptedException {
        try {
            long leftMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata()
                    .get(leftMs, TimeUnit.MILLISECONDS);
            pending.entrySet().removeIf(e -> {
                OffsetAndMetadata c = committed.get(e.getKey());
                return c != null && c.offset() >= e.getValue();
            });
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            // Kafka slow or the group unknown yet: keep checking locally until the deadline.
        }
    }
}
