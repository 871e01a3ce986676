package io.tributary.session.tenant;

import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.tributary.common.session.LimitsApi;
import io.tributary.common.session.SessionApi;
import io.tributary.session.internalauth.InternalCallers;
import io.tributary.session.internalauth.InternalRole;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Tenants on the admin REST API, {@code /api/v1/tenants} (bearer token, like all of {@code /api/v1}), and their
 * publish quotas for transport nodes on the internal API.
 */
@RestController
@RequestMapping(produces = "application/json")
public class TenantController {

    private final TenantAdminService admin;

    public TenantController(TenantAdminService admin) {
        this.admin = admin;
    }

    @ApiResponse(responseCode = "409", description = "a tenant with that id exists")
    @PostMapping(path = "/api/v1/tenants", consumes = "application/json")
    @ResponseStatus(HttpStatus.CREATED)
    public Tenant createTenant(@RequestBody(required = false) TenantRequest request) {
        return admin.create(request);
    }

    @GetMapping("/api/v1/tenants")
    public TenantAdminService.TenantPage listTenants(
            @RequestParam(defaultValue = "0") int page, @RequestParam(defaultValue = "50") int size) {
        return admin.list(page, size);
    }

    @ApiResponse(responseCode = "404", description = "no such tenant")
    @GetMapping("/api/v1/tenants/{id}")
    @ResponseStatus(HttpStatus.OK) // with @ApiResponse errors declared, springdoc lists the 200 only so
    public Tenant getTenant(@PathVariable String id) {
        return admin.get(id);
    }

    @ApiResponse(responseCode = "404", description = "no such tenant")
    @PutMapping(path = "/api/v1/tenants/{id}", consumes = "application/json")
    @ResponseStatus(HttpStatus.OK)
    public Tenant replaceTenant(@PathVariable String id, @RequestBody(required = false) TenantRequest request) {
        return admin.replace(id, request);
    }

    /**
     * Internal API: the publish quotas of every tenant that has one (the transport nodes enforce them, the routing
     * nodes take the queued-message quotas from the same list).
     */
    @InternalCallers({InternalRole.TRANSPORT, InternalRole.ROUTING})
    @GetMapping(SessionApi.TENANT_PUBLISH_QUOTAS)
    public LimitsApi.TenantPublishQuotas tenantPublishQuotas() {
        return admin.publishQuotas();
    }

    @ApiResponse(responseCode = "404", description = "no such tenant")
    @ApiResponse(responseCode = "409", description = "the tenant still has credentials")
    @DeleteMapping("/api/v1/tenants/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void deleteTenant(@PathVariable String id) {
        admin.delete(id);
    }
}
