package io.tributary.session.tenant;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A tenant as stored and as the admin API shows it.
 *
 * @param id          the tenant id: the level its topics are mounted under ({@code $tenant/<id>/}), the value of the
 *                    {@code tributary.tenant} Kafka header; fixed for the tenant's life
 * @param credentials how many credentials belong to it
 */
public record Tenant(String id, @Nullable String description, Instant createdAt, long credentials) {}
