package io.tributary.session.tenant;

import io.tributary.common.tenant.TenantTopics;
import io.tributary.session.web.ApiException;
import org.jspecify.annotations.Nullable;

/**
 * Body of {@code POST /api/v1/tenants}.
 *
 * @param id lower-case letters, digits and '-', 1 to 63 characters, starting with a letter or digit
 */
public record TenantRequest(@Nullable String id, @Nullable String description) {

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
    }
}
