package io.tributary.session.adminauth;

import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.tributary.session.web.AdminPrincipal;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /api/v1/admin/users}: admin users of the whole cluster or scoped to a tenant (only admins of the whole
 * cluster reach it), and {@code /api/v1/admin/me}: who the token belongs to and its scope (every admin).
 */
@RestController
@RequestMapping(path = "/api/v1/admin", produces = "application/json")
public class AdminUserController {

    static final String ME_PATH = "/api/v1/admin/me";

    private final AdminUserService users;

    public AdminUserController(AdminUserService users) {
        this.users = users;
    }

    @GetMapping("/me")
    public AdminPrincipal currentAdmin(HttpServletRequest request) {
        return AdminPrincipal.of(request);
    }

    @ApiResponse(responseCode = "403", description = "the caller is scoped to a tenant")
    @GetMapping("/users")
    @ResponseStatus(HttpStatus.OK) // with @ApiResponse errors declared, springdoc lists the 200 only so
    public List<AdminUserService.AdminUserView> listAdminUsers() {
        return users.list();
    }

    @ApiResponse(responseCode = "400", description = "missing user name, weak password or unknown tenant")
    @ApiResponse(responseCode = "409", description = "the user name is taken")
    @PostMapping(path = "/users", consumes = "application/json")
    @ResponseStatus(HttpStatus.CREATED)
    public AdminUserService.AdminUserView createAdminUser(
            @RequestBody(required = false) AdminUserService.AdminUserRequest body, HttpServletRequest request) {
        return users.create(body, AdminPrincipal.of(request));
    }

    @ApiResponse(responseCode = "404", description = "no such admin user")
    @ApiResponse(responseCode = "409", description = "the last admin of the whole cluster")
    @DeleteMapping("/users/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void deleteAdminUser(@PathVariable long id, HttpServletRequest request) {
        users.delete(id, AdminPrincipal.of(request));
    }
}
