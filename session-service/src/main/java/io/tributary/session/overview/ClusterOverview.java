package io.tributary.session.overview;

import io.tributary.session.kafkaview.KafkaInspector.MemberView;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The cluster at a glance, as {@code GET /api/v1/overview} answers it. Message counters are cumulative (the sum of
 * the {@code $SYS} counters the live transport nodes published last); the console turns two answers into rates.
 * {@code latency} is the data path hop by hop, from the figures transport nodes and routers publish under
 * {@code $SYS}. A part that could not be read is null (or empty) and named in {@code problems}.
 */
public record ClusterOverview(
        Instant at,
        @Nullable Long sessions,
        long connections,
        long messagesReceived,
        long messagesSent,
        List<TransportNode> transportNodes,
        @Nullable GroupHealth routing,
        @Nullable GroupHealth sessionService,
        List<HopLatency> latency,
        List<String> problems) {

    /** One transport node incarnation; its figures are those of its last {@code $SYS} publication ({@code statsAt}). */
    public record TransportNode(
            String nodeId,
            String incarnation,
            boolean alive,
            Instant firstSeen,
            Instant lastSeen,
            @Nullable Long connections,
            @Nullable Long messagesReceived,
            @Nullable Long messagesSent,
            @Nullable Instant statsAt) {}

    /**
     * One hop of the data path ({@code io.tributary.common.sys.DataPathHop}): the worst p50 and p99 in milliseconds
     * among the {@code instances} of {@code measuredBy} that published it (their recent window), as of {@code at};
     * null figures when none did.
     */
    public record HopLatency(
            String hop,
            String measuredBy,
            @Nullable Double p50Millis,
            @Nullable Double p99Millis,
            int instances,
            @Nullable Instant at) {}

    /** The instances of a service seen as the members of its consumer group; {@code lag} in records. */
    public record GroupHealth(String groupId, String state, List<MemberView> members, long lag) {}
}
