package io.tributary.session.tenant;

import io.tributary.common.tenant.TenantTopics;
import io.tributary.session.web.ApiException;
import org.jspecify.annotations.Nullable;

/**
 * Body of {@code POST /api/v1/tenants} and {@code PUT /api/v1/tenants/{id}} (where {@code id} is left out or equal).
 *
 * @param id             lower-case letters, digits and '-', 1 to 63 characters, starting with a letter or digit
 * @param maxConnections its clients connected at once across the cluster at most (0 admits none); null: no limit
 * @param maxPublishRate PUBLISH packets per second its clients may send together across the cluster (0 admits
 *                       none); null: no limit
 * @param maxPublishBytesRate payload bytes per second its clients may send together across the cluster; null: no
 *                       limit
 */
public record TenantRequest(
        @Nullable String id,
        @Nullable String description,
        @Nullable Integer maxConnections,
        @Nullable Integer maxPublishRate,
        @Nullable Long maxPublishBytesRate) {

    public TenantRequest(@Nullable String id, @Nullable String description, @Nullable Integer maxConnections) {
        this(id, description, maxConnections, null, null);
    }

    static final int MAX_DESCRIPTION = 1000;

    /** @throws ApiException 400 naming the problem */
    void check() {
        String problem = TenantTopics.idProblem(id);
        if (problem != null) {
            throw ApiException.badRequest(problem);
        }
        if (description != null && description.length() > MAX_DESCRIPTION) {
            throw ApiException.badRequest("description longer than " + MAX_DESCRIPTION + " characters");
        }
        if (maxConnections != null && maxConnections < 0) {
            throw ApiException.badRequest("maxConnections must not be negative: " + maxConnections);
        }
        if (maxPublishRate != null && maxPublishRate < 0) {
            throw ApiException.badRequest("maxPublishRate must not be negative: " + maxPublishRate);
        }
        if (maxPublishBytesRate != null && maxPublishBytesRate < 0) {
            throw ApiException.badRequest("maxPublishBytesRate must not be negative: " + maxPublishBytesRate);
        }
    }
}
