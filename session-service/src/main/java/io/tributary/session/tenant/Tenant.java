package io.tributary.session.tenant;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A tenant as stored and as the admin API shows it: its quotas (each null: no limit) and what its clients use of
 * them now.
 *
 * @param id               the tenant id: the level its topics are mounted under ({@code $tenant/<id>/}), the value
 *                         of the {@code tributary.tenant} Kafka header; fixed for the tenant's life
 * @param credentials      how many credentials belong to it
 * @param maxConnections   its clients connected at once across the cluster at most; null: no limit
 * @param connections      its clients connected now (sessions marked connected, on every node)
 * @param maxSessions      persistent sessions (session expiry above 0) stored for its clients at most; null: no limit
 * @param sessions         its persistent sessions stored now, connected or not (an expired one until it is swept)
 * @param maxSubscriptions subscriptions stored for its clients in total at most; null: no limit
 * @param subscriptions    its clients' subscriptions stored now
 * @param connectRate      CONNECTs per second across the cluster at most; null: no limit
 * @param maxPublishRate   PUBLISH packets per second its clients may send together, across the cluster; null: no
 *                         limit
 * @param maxPublishBytesRate payload bytes per second its clients may send together, across the cluster; null: no
 *                         limit
 * @param maxDeliveryBytesRate payload bytes per second delivered to its clients together, across the cluster; null:
 *                         no limit
 * @param maxRetained      retained messages (topics with one) stored for its namespace at most; null: no limit
 * @param retained         its unexpired retained messages stored now
 * @param maxQueuedMessages messages each of its persistent sessions' queues holds at most (below the global
 *                         {@code TRIBUTARY_QUEUE_LIMIT}); null: the global limit
 */
public record Tenant(
        String id,
        @Nullable String description,
        Instant createdAt,
        long credentials,
        @Nullable Integer maxConnections,
        long connections,
        @Nullable Integer maxSessions,
        long sessions,
        @Nullable Integer maxSubscriptions,
        long subscriptions,
        @Nullable Integer connectRate,
        @Nullable Integer maxPublishRate,
        @Nullable Long maxPublishBytesRate,
        @Nullable Long maxDeliveryBytesRate,
        @Nullable Integer maxRetained,
        long retained,
        @Nullable Integer maxQueuedMessages) {}
