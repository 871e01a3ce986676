package io.tributary.session.adminauth;

import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirements;
import io.tributary.session.web.ApiException;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** {@code /api/v1/admin/tokens}: log in (user name and password → bearer token) and log out (revoke the token). */
@RestController
@RequestMapping(path = AdminTokenFilter.TOKENS_PATH, produces = "application/json")
public class AdminTokenController {

    /** Body of {@code POST /api/v1/admin/tokens}. */
    public record TokenRequest(String username, String password) {}

    private final AdminTokenService tokens;

    public AdminTokenController(AdminTokenService tokens) {
        this.tokens = tokens;
    }

    @SecurityRequirements // the one admin call without a token: it issues them
    @ApiResponse(responseCode = "401", description = "bad user name or password")
    @PostMapping(consumes = "application/json")
    @ResponseStatus(HttpStatus.CREATED)
    public AdminTokenService.IssuedToken issueAdminToken(@RequestBody(required = false) TokenRequest request) {
        if (request == null || request.username() == null || request.password() == null) {
            throw ApiException.badRequest("username and password are required");
        }
        return tokens.issue(request.username(), request.password())
                .orElseThrow(() -> new ApiException(HttpStatus.UNAUTHORIZED, "bad user name or password"));
    }

    /** Revokes the token this request is authenticated with (the filter has checked it). */
    @ApiResponse(responseCode = "401", description = "the token is invalid, expired or already revoked")
    @DeleteMapping
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void revokeAdminToken(HttpServletRequest request) {
        String token = AdminTokenFilter.bearerToken(request);
        if (token == null || !tokens.revoke(token)) {
            throw new ApiException(HttpStatus.UNAUTHORIZED, "invalid, expired or revoked bearer token");
        }
    }
}
