package io.tributary.routing.config;

import io.tributary.routing.fanout.SharedStrategy;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Behaviour of the routing loop.
 *
 * @param groupId consumer group of the routers on the publish topic; routers sharing it split the partitions
 * @param pollTimeout longest wait of one poll of the publish topic; also the pace of idle subscription updates
 * @param maxPollRecords most publishes routed (and committed) as one batch
 * @param feedCatchUpTimeout longest wait for the subscription feed to reach its end offsets before a batch is routed;
 *        past it the batch is retried
 * @param produceTimeout longest wait for the downlink records of one batch to be acknowledged (the producer's
 *        delivery timeout)
 * @param produceMaxBlock longest time a send may block on metadata or a full buffer
 * @param producerLinger linger.ms of the downlink producer: how long a record waits for others to share its request.
 *        1 ms by default: 5 ms added 5 ms to every message; 0 sent so many small requests that Kafka's and routing's
 *        CPU grew by a fifth, which on a busy machine cost more than it saved (docs/benchmarks-history.md, section 7)
 * @param commitInterval shortest time between two commits of the routed offsets. Each commit is a write to the group
 *        coordinator's log; one per batch was ~100 commits a second at 1,000 publishes a second. What it bounds: after
 *        a router dies, the next owner routes again what was routed since the last commit (at least once; persistent
 *        sessions' queue appends are idempotent, so only non-persistent subscribers may see a duplicate). 0 commits
 *        after every batch
 * @param downlinkRefreshInterval how often the list of existing downlink topics is refreshed
 * @param downlinkMissRefreshInterval shortest interval between two refreshes caused by a publish for a node whose
 *        downlink topic is not in the list
 * @param retryBackoffMin first wait after a Kafka failure; doubled at each consecutive failure
 * @param retryBackoffMax longest wait after a Kafka failure
 * @param sharedStrategy how the one member of a share group is chosen for each message
 */
@Validated
@ConfigurationProperties("tributary.routing")
public record RoutingProperties(
        @NotBlank String groupId,
        @NotNull @DurationMin(millis = 10) Duration pollTimeout,
        @Min(1) @Max(100_000) int maxPollRecords,
        @NotNull @DurationMin(millis = 100) Duration feedCatchUpTimeout,
        @NotNull @DurationMin(seconds = 1) Duration produceTimeout,
        @NotNull @DurationMin(millis = 100) Duration produceMaxBlock,

        @NotNull @DurationMin(millis = 0) @DurationMax(seconds = 1)
        Duration producerLinger,

        @NotNull @DurationMin(millis = 0) @DurationMax(seconds = 60)
        Duration commitInterval,

        @NotNull @DurationMin(millis = 100) Duration downlinkRefreshInterval,
        @NotNull @DurationMin(millis = 0) Duration downlinkMissRefreshInterval,
        @NotNull @DurationMin(millis = 1) Duration retryBackoffMin,
        @NotNull @DurationMin(millis = 1) Duration retryBackoffMax,
        @NotNull SharedStrategy sharedStrategy) {

    @AssertTrue(message = "retry-backoff-max must not be shorter than retry-backoff-min")
    public boolean isBackoffRangeValid() {
        return retryBackoffMin == null || retryBackoffMax == null || retryBackoffMax.compareTo(retryBackoffMin) >= 0;
    }
}
