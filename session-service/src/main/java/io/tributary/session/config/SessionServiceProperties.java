package io.tributary.session.config;

import io.tributary.common.kafka.GroupMembership;
import io.tributary.common.kafka.TopicLayout;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Everything session-service can be told besides the datasource (which stays under {@code spring.datasource}).
 * Bound from {@code tributary.session.*}; application.yml maps the documented environment variables onto it.
 */
@Validated
@ConfigurationProperties("tributary.session")
public record SessionServiceProperties(
        @Valid @NotNull Kafka kafka,
        @Valid @NotNull Redis redis,
        @Valid @NotNull Expiry expiry,
        @Valid @NotNull Metrics metrics,
        @Valid @NotNull Retained retained,
        @Valid @NotNull Liveness liveness,
        @Valid @NotNull Wills wills) {

    /**
     * @param topics             layout of the topics, shared with the other services; the publish partition count
     *                           actually used for placing records is read back from the cluster
     * @param maxBlock           longest a send may block on metadata or a full buffer: small, so that a dead Kafka
     *                           fails the request fast instead of holding its row lock
     * @param ackTimeout         longest a request waits for the acknowledgements of the records it produced
     * @param group              how the retained-message consumer joins its group (protocol, static membership)
     */
    public record Kafka(
            @NotBlank String bootstrapServers,
            @Valid @NotNull TopicLayout topics,
            @NotNull Duration maxBlock,
            @NotNull Duration ackTimeout,
            @Valid @NotNull GroupMembership group) {}

    /** @param commandTimeout longest a presence command may take; presence never blocks a request for long */
    public record Redis(@NotNull URI url, @NotNull Duration commandTimeout) {

        /** The URL's user information (the Redis password) never reaches a log line or an error. */
        @Override
        public String toString() {
            return "Redis[url=" + io.tributary.redis.RedisSettings.redacted(String.valueOf(url)) + ", commandTimeout="
                    + commandTimeout + "]";
        }
    }

    /**
     * @param sweepInterval     pause between two runs of the expiry sweep
     * @param batchSize         expired sessions removed per transaction
     * @param maxBatchesPerRun  bound on the work of one run, so a backlog is worked off over several runs
     * @param maxSessionExpiry  longest Session Expiry Interval a session gets, whatever the client asks (MQTT 5: the
     *                          CONNACK tells it; MQTT 3.1.1 clean session 0 gets it): whole seconds, 1 s to
     *                          4294967295 s; 4294967295 s lets sessions that ask for it never expire
     */
    public record Expiry(
            @NotNull Duration sweepInterval,
            @Min(1) @Max(10_000) int batchSize,
            @Min(1) int maxBatchesPerRun,
            @NotNull Duration maxSessionExpiry) {

        /** Session Expiry Interval of a session that never expires (MQTT 5 section 3.1.2.11.2). */
        private static final long NEVER = 0xFFFFFFFFL;

        public Expiry {
            if (maxSessionExpiry != null
                    && (maxSessionExpiry.getNano() != 0
                            || maxSessionExpiry.getSeconds() < 1
                            || maxSessionExpiry.getSeconds() > NEVER)) {
                throw new IllegalArgumentException("SESSION_EXPIRY_MAX must be whole seconds from 1s to 4294967295s"
                        + " (136 years: sessions asking for it never expire), not " + maxSessionExpiry);
            }
        }

        /** The session expiry a session gets when its client asks for {@code requestedSeconds}. */
        public long grantedSeconds(long requestedSeconds) {
            return Math.min(requestedSeconds, maxSessionExpiry.getSeconds());
        }
    }

    /** @param connectedRefresh how often the connected-sessions gauge is re-read from PostgreSQL */
    public record Metrics(@NotNull Duration connectedRefresh) {}

    /**
     * @param consumerGroup   consumer group of the retained-message consumer on the retained topic
     * @param legacyConsumerGroup the group earlier versions read retained messages with from the publish topic:
     *                        drained once at the upgrade ({@code LegacyRetainedDrain}); must differ from
     *                        {@code consumerGroup}
     * @param catchUpTimeout  longest a SUBSCRIBE waits for that consumer to reach the end of the retained topic as it
     *                        was when the SUBSCRIBE arrived (so every retained PUBLISH acknowledged before is found)
     * @param maxPerSubscribe most retained messages returned for one SUBSCRIBE packet; more are not sent (logged)
     * @param countRefresh    how often the retained-messages gauge is re-counted and expired rows are purged
     */
    public record Retained(
            @NotBlank String consumerGroup,
            @NotBlank String legacyConsumerGroup,
            @NotNull Duration catchUpTimeout,
            @Min(1) @Max(1_000_000) int maxPerSubscribe,
            @NotNull Duration countRefresh) {

        public Retained {
            // The drain commits the old group's positions once; the same group on the retained topic would never be
            // empty for that commit, and would mix two topics' positions.
            if (consumerGroup != null && consumerGroup.equals(legacyConsumerGroup)) {
                throw new IllegalArgumentException("RETAINED_CONSUMER_GROUP and RETAINED_LEGACY_CONSUMER_GROUP must"
                        + " differ (both are '" + consumerGroup + "')");
            }
        }
    }

    /**
     * @param nodeTimeout       a transport node incarnation not heard from for this long is declared dead and the
     *                          sessions still connected on it are ended; keep it several heartbeat intervals long
     * @param checkInterval     pause between two runs of the detector
     * @param batchSize         sessions of dead nodes ended per transaction
     * @param maxBatchesPerRun  bound on the work of one run
     */
    public record Liveness(
            @NotNull Duration nodeTimeout,
            @NotNull Duration checkInterval,
            @Min(1) @Max(10_000) int batchSize,
            @Min(1) int maxBatchesPerRun) {}

    /**
     * @param publishInterval  pause between two runs of the will publisher: a delayed will is published at most this
     *                         long after it is due
     * @param batchSize        wills published per transaction
     * @param maxBatchesPerRun bound on the work of one run
     */
    public record Wills(
            @NotNull Duration publishInterval,
            @Min(1) @Max(10_000) int batchSize,
            @Min(1) int maxBatchesPerRun) {}
}
