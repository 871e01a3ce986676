package io.tributary.session.auth;

import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.tributary.session.web.AdminPrincipal;
import jakarta.servlet.http.HttpServletRequest;
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
 * Admin REST API of MQTT credentials, ACLs and failed authentications, {@code /api/v1/auth}. An admin scoped to a
 * tenant sees and manages its tenant's credentials only.
 */
@RestController
@RequestMapping(path = "/api/v1/auth", produces = "application/json")
public class AuthAdminController {

    private final CredentialAdminService admin;

    public AuthAdminController(CredentialAdminService admin) {
        this.admin = admin;
    }

    @ApiResponse(responseCode = "409", description = "a credential for the same username, clientId, certificateCn")
    @PostMapping(path = "/credentials", consumes = "application/json")
    @ResponseStatus(HttpStatus.CREATED)
    public CredentialView createCredential(
            @RequestBody(required = false) CredentialRequest body, HttpServletRequest request) {
        return admin.create(body, AdminPrincipal.of(request));
    }

    @GetMapping("/credentials")
    public AuthPages.CredentialPage listCredentials(
            @RequestParam(defaultValue = "0") int page,
            @RequestParam(defaultValue = "50") int size,
            HttpServletRequest request) {
        return admin.list(page, size, AdminPrincipal.of(request));
    }

    @ApiResponse(responseCode = "404", description = "no such credential")
    @GetMapping("/credentials/{id}")
    @ResponseStatus(HttpStatus.OK) // with @ApiResponse errors declared, springdoc lists the 200 only so
    public CredentialView getCredential(@PathVariable long id, HttpServletRequest request) {
        return admin.get(id, AdminPrincipal.of(request));
    }

    @ApiResponse(responseCode = "404", description = "no such credential")
    @ApiResponse(responseCode = "409", description = "a credential for the same username, clientId, certificateCn")
    @PutMapping(path = "/credentials/{id}", consumes = "application/json")
    @ResponseStatus(HttpStatus.OK) // with @ApiResponse errors declared, springdoc lists the 200 only so
    public CredentialView updateCredential(
            @PathVariable long id, @RequestBody(required = false) CredentialRequest body, HttpServletRequest request) {
        return admin.update(id, body, AdminPrincipal.of(request));
    }

    @ApiResponse(responseCode = "404", description = "no such credential")
    @DeleteMapping("/credentials/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void deleteCredential(@PathVariable long id, HttpServletRequest request) {
        admin.delete(id, AdminPrincipal.of(request));
    }

    @GetMapping("/failures")
    public AuthPages.FailurePage listAuthFailures(
            @RequestParam(defaultValue = "0") int page, @RequestParam(defaultValue = "50") int size) {
        return admin.failures(page, size);
    }
}
