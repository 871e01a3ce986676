package io.tributary.session.tenant;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A tenant as stored and as the admin API shows it.
 *
 * @param id             the tenant id: the level its topics are mounted under ({@code $tenant/<id>/}), the value of
 *                       the {@code tributary.tenant} Kafka header; fixed for the tenant's life
 * @param credentials    how many credentials belong to it
 * @param maxConnections its clients connected at once across the cluster at most; null: no limit
 * @param connections    its clients connected now (sessions marked connected, on every node)
 * @param maxPublishRate PUBLISH packets per second its clients may send together, across the cluster; null: no limit
 * @param maxPublishBytesRate payload bytes per second its clients may send together, across the cluster; null: no
 *                       limit
 */
public record Tenant(
        String id,
        @Nullable String description,
        Instant createdAt,
        long credentials,
        @Nullable Integer maxConnections,
        long connections,
        @Nullable Integer maxPublishRate,
        @Nullable Long maxPublishBytesRate) {}
