package io.tributary.session.adminauth;

import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirements;
import io.tributary.session.throttle.FailureThrottle;
import io.tributary.session.web.ApiException;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
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
    public record TokenRequest(String username, String password) {

        /** Without the password (a request body can end up in a log line). */
        @Override
        public String toString() {
            return "TokenRequest[username=" + username + ", password=(redacted)]";
        }
    }

    private static final Logger log = LoggerFactory.getLogger(AdminTokenController.class);

    private final AdminTokenService tokens;
    /** Wrong logins per (user name, address) and per address: user names are case-insensitive, so folded. */
    private final FailureThrottle throttle;

    public AdminTokenController(AdminTokenService tokens, AdminAuthProperties properties, Clock clock) {
        this.tokens = tokens;
        AdminAuthProperties.Login login = properties.login();
        this.throttle =
                new FailureThrottle(login.maxFailuresPerUser(), login.maxFailuresPerAddress(), login.window(), clock);
    }

    @SecurityRequirements // the one admin call without a token: it issues them
    @ApiResponse(responseCode = "401", description = "bad user name or password")
    @ApiResponse(
            responseCode = "429",
            description = "too many wrong logins from this address (for this user name, or in all): try again after"
                    + " the Retry-After seconds; the password was not checked")
    @ApiResponse(responseCode = "413", description = "the body is larger than 4096 bytes")
    @PostMapping(consumes = "application/json")
    @ResponseStatus(HttpStatus.CREATED)
    public ResponseEntity<AdminTokenService.IssuedToken> issueAdminToken(
            @RequestBody(required = false) TokenRequest request, HttpServletRequest http) {
        if (request == null || request.username() == null || request.password() == null) {
            throw ApiException.badRequest("username and password are required");
        }
        String address = http.getRemoteAddr();
        Optional<Duration> wait = throttle.refusal(folded(request.username()), address);
        if (wait.isPresent()) {
            long seconds = Math.max(1, wait.get().toSeconds() + (wait.get().toMillisPart() > 0 ? 1 : 0));
            log.warn(
                    "Admin login refused without checking the password: too many wrong logins from {} (retry in {} s)",
                    address,
                    seconds);
            throw new ApiException(
                    HttpStatus.TOO_MANY_REQUESTS,
                    "too many wrong logins from this address: try again in " + seconds + " s",
                    Map.of(HttpHeaders.RETRY_AFTER, Long.toString(seconds)));
        }
        Optional<AdminTokenService.IssuedToken> issued = tokens.issue(request.username(), request.password());
        if (issued.isEmpty()) {
            throttle.failed(folded(request.username()), address);
            throw new ApiException(HttpStatus.UNAUTHORIZED, "bad user name or password");
        }
        throttle.succeeded(folded(request.username()), address);
        return ResponseEntity.status(HttpStatus.CREATED).body(issued.get());
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

    private static String folded(String username) {
        return username.toLowerCase(Locale.ROOT);
    }
}
