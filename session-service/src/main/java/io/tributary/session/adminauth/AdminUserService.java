package io.tributary.session.adminauth;

import io.tributary.session.auth.PasswordHasher;
import io.tributary.session.tenant.TenantStore;
import io.tributary.session.web.AdminPrincipal;
import io.tributary.session.web.ApiException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Admin users of the REST API, managed by admins of the whole cluster: an admin is either for the whole cluster or
 * scoped to one tenant ({@link TenantScopeRules}). The last admin of the whole cluster cannot be deleted, so the
 * cluster never ends up without someone who can manage it.
 */
@Service
public class AdminUserService {

    private static final Logger log = LoggerFactory.getLogger(AdminUserService.class);
    private static final int MAX_USERNAME_LENGTH = 200;

    /** Body of {@code POST /api/v1/admin/users}; {@code tenant} null: an admin of the whole cluster. */
    public record AdminUserRequest(
            String username, String password, @Nullable String tenant) {}

    /** An admin user as the API shows it (never its password hash). */
    public record AdminUserView(
            long id, String username, @Nullable String tenant, Instant createdAt) {
        static AdminUserView of(AdminUser user) {
            return new AdminUserView(user.id(), user.username(), user.tenant(), user.createdAt());
        }
    }

    private final AdminAuthStore store;
    private final TenantStore tenants;
    private final PasswordHasher hasher;
    private final Clock clock;

    public AdminUserService(AdminAuthStore store, TenantStore tenants, PasswordHasher hasher, Clock clock) {
        this.store = store;
        this.tenants = tenants;
        this.hasher = hasher;
        this.clock = clock;
    }

    public List<AdminUserView> list() {
        return store.users().stream().map(AdminUserView::of).toList();
    }

    public AdminUserView create(AdminUserRequest request, AdminPrincipal by) {
        if (request == null || request.username() == null || request.username().isBlank()) {
            throw ApiException.badRequest("username is required");
        }
        if (request.username().length() > MAX_USERNAME_LENGTH
                || request.username().chars().anyMatch(Character::isISOControl)) {
            throw ApiException.badRequest(
                    "username must be at most " + MAX_USERNAME_LENGTH + " characters, without control characters");
        }
        String problem = PasswordHasher.problem(request.password());
        if (problem != null) {
            throw ApiException.badRequest(problem);
        }
        if (request.tenant() != null && !tenants.exists(request.tenant())) {
            throw ApiException.badRequest(
                    "no tenant '" + request.tenant() + "': create it first (POST /api/v1/tenants)");
        }
        try {
            long id = store.insertUser(
                    request.username(), hasher.hash(request.password()), request.tenant(), clock.instant());
            log.info(
                    "Admin user '{}' created by '{}' ({})",
                    request.username(),
                    by.username(),
                    request.tenant() == null ? "whole cluster" : "scoped to tenant " + request.tenant());
            return AdminUserView.of(store.findUser(id).orElseThrow());
        } catch (DuplicateKeyException e) {
            throw ApiException.conflict("admin user '" + request.username() + "' exists already");
        }
    }

    /** Deletes the admin user and its tokens; 409 for the last admin of the whole cluster. */
    @Transactional
    public void delete(long id, AdminPrincipal by) {
        int unscoped = store.lockUnscopedUsers();
        AdminUser user = store.findUser(id).orElseThrow(() -> ApiException.notFound("no admin user " + id));
        if (user.tenant() == null && unscoped <= 1) {
            throw ApiException.conflict("admin user '" + user.username()
                    + "' is the last admin of the whole cluster: create another before deleting it");
        }
        store.deleteUser(id);
        log.info("Admin user '{}' deleted by '{}'", user.username(), by.username());
    }
}
