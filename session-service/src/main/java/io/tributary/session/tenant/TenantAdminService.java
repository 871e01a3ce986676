package io.tributary.session.tenant;

import io.tributary.common.session.LimitsApi;
import io.tributary.session.admin.SessionAdminService;
import io.tributary.session.web.ApiException;
import java.time.Clock;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Tenants on the admin API. A tenant is a namespace and an owner of credentials; a credential joins one when it is
 * created or replaced ({@code tenant} in the credential's body). A deployment without tenants behaves as before.
 */
@Service
public class TenantAdminService {

    private static final Logger log = LoggerFactory.getLogger(TenantAdminService.class);

    /** A page of tenants. */
    public record TenantPage(List<Tenant> items, int page, int size, long total) {}

    private final TenantStore tenants;
    private final Clock clock;

    public TenantAdminService(TenantStore tenants, Clock clock) {
        this.tenants = tenants;
        this.clock = clock;
    }

    public Tenant create(TenantRequest request) {
        if (request == null) {
            throw ApiException.badRequest("request body is required");
        }
        request.check();
        if (!tenants.insert(request, clock.instant())) {
            throw ApiException.conflict("tenant '" + request.id() + "' exists already");
        }
        log.info("Tenant {} created (at most: {})", request.id(), request.quotas());
        return get(request.id());
    }

    /**
     * Replaces a tenant's description and quotas. A lower quota refuses from then on; what its clients hold already
     * (connections, sessions, subscriptions) stays. Publish quotas reach the transport nodes with their next poll
     * ({@code TRIBUTARY_TENANT_QUOTA_REFRESH}).
     */
    public Tenant replace(String id, TenantRequest request) {
        if (request == null) {
            throw ApiException.badRequest("request body is required");
        }
        if (request.id() != null && !request.id().equals(id)) {
            throw ApiException.badRequest(
                    "a tenant's id cannot change ('" + id + "' in the path, '" + request.id() + "' in the body)");
        }
        TenantRequest replacement = request.withId(id);
        replacement.check();
        if (!tenants.update(replacement)) {
            throw ApiException.notFound("no tenant '" + id + "'");
        }
        log.info("Tenant {} changed (at most: {})", id, replacement.quotas());
        return get(id);
    }

    /** The publish quotas of every tenant that has one, for the transport nodes (internal API). */
    public LimitsApi.TenantPublishQuotas publishQuotas() {
        return new LimitsApi.TenantPublishQuotas(tenants.publishQuotas());
    }

    public Tenant get(String id) {
        return tenants.find(id).orElseThrow(() -> ApiException.notFound("no tenant '" + id + "'"));
    }

    public TenantPage list(int page, int size) {
        if (page < 0) {
            throw ApiException.badRequest("page must not be negative: " + page);
        }
        if (size < 1 || size > SessionAdminService.MAX_PAGE_SIZE) {
            throw ApiException.badRequest("size must be 1.." + SessionAdminService.MAX_PAGE_SIZE + ": " + size);
        }
        return new TenantPage(tenants.page((long) page * size, size), page, size, tenants.count());
    }

    /**
     * Deletes a tenant that owns no credential and no scoped admin user any more (409 otherwise: delete or move them
     * first, which closes their connections), and the retained messages of its namespace, so a tenant created later with the same id
     * starts empty.
     */
    @Transactional
    public void delete(String id) {
        long credentials =
                tenants.lockAndCountCredentials(id).orElseThrow(() -> ApiException.notFound("no tenant '" + id + "'"));
        if (credentials > 0) {
            throw ApiException.conflict("tenant '" + id + "' still has " + credentials
                    + " credential(s): delete them or move them to another tenant first");
        }
        long admins = tenants.countScopedAdmins(id);
        if (admins > 0) {
            throw ApiException.conflict("tenant '" + id + "' still has " + admins
                    + " admin user(s) scoped to it: delete them first (DELETE /api/v1/admin/users/{id})");
        }
        tenants.delete(id);
        log.info("Tenant {} deleted", id);
    }
}
