package io.tributary.session.tenant;

import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** Tenants on the admin REST API, {@code /api/v1/tenants} (bearer token, like all of {@code /api/v1}). */
@RestController
@RequestMapping(path = "/api/v1/tenants", produces = "application/json")
public class TenantController {

    private final TenantAdminService admin;

    public TenantController(TenantAdminService admin) {
        this.admin = admin;
    }

    @ApiResponse(responseCode = "409", description = "a tenant with that id exists")
    @PostMapping(consumes = "application/json")
    @ResponseStatus(HttpStatus.CREATED)
    public Tenant createTenant(@RequestBody(required = false) TenantRequest request) {
        return admin.create(request);
    }

    @GetMapping
    public TenantAdminService.TenantPage listTenants(
            @RequestParam(defaultValue = "0") int page, @RequestParam(defaultValue = "50") int size) {
        return admin.list(page, size);
    }

    @ApiResponse(responseCode = "404", description = "no such tenant")
    @GetMapping("/{id}")
    @ResponseStatus(HttpStatus.OK) // with @ApiResponse errors declared, springdoc lists the 200 only so
    public Tenant getTenant(@PathVariable String id) {
        return admin.get(id);
    }

    @ApiResponse(responseCode = "404", description = "no such tenant")
    @ApiResponse(responseCode = "409", description = "the tenant still has credentials")
    @DeleteMapping("/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void deleteTenant(@PathVariable String id) {
        admin.delete(id);
    }
}
