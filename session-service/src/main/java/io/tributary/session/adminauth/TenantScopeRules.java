package io.tributary.session.adminauth;

import io.tributary.session.web.AdminPrincipal;
import java.util.regex.Pattern;

/**
 * What an admin scoped to a tenant may call: deny by default. Its tenant's credentials (the services check that each
 * credential it touches is its tenant's), its own tenant and that tenant's usage (read only), who it is, and logging
 * out. Everything else (sessions, retained messages, rules, Kafka views, other tenants, admin users) is the cluster
 * admin's, and answers 403.
 */
final class TenantScopeRules {

    private static final Pattern CREDENTIALS = Pattern.compile("/api/v1/auth/credentials(/[0-9]+)?");

    private TenantScopeRules() {}

    /**
     * @param path the request's path inside the application, already compared with the raw URI by the caller (no
     *             dot segments, no encoded or matrix parts)
     */
    static boolean allows(AdminPrincipal admin, String method, String path) {
        if (!admin.scoped()) {
            return true;
        }
        if (CREDENTIALS.matcher(path).matches()) {
            return true;
        }
        String ownTenant = "/api/v1/tenants/" + admin.tenant();
        if ("GET".equals(method) && (path.equals(ownTenant) || path.equals(ownTenant + "/usage"))) {
            return true;
        }
        if ("GET".equals(method) && path.equals(AdminUserController.ME_PATH)) {
            return true;
        }
        return "DELETE".equals(method) && path.equals(AdminTokenFilter.TOKENS_PATH);
    }
}
