package io.tributary.session.adminauth;

import io.tributary.session.auth.PasswordHasher;
import io.tributary.session.web.AdminPrincipal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * Issues, checks and revokes the opaque bearer tokens of the admin REST API. A token is 32 random bytes (base64url);
 * only its SHA-256 is stored, so it is checked with one indexed lookup per request (no bcrypt per request) and a
 * leaked database holds no usable token. Revocation and expiry apply on the next request, on every instance.
 */
@Service
public class AdminTokenService {

    private static final Logger log = LoggerFactory.getLogger(AdminTokenService.class);
    private static final int TOKEN_BYTES = 32;

    /** A new token, shown once. */
    public record IssuedToken(String token, String tokenType, Instant expiresAt) {}

    private final AdminAuthStore store;
    private final PasswordHasher hasher;
    private final AdminAuthProperties properties;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    public AdminTokenService(AdminAuthStore store, PasswordHasher hasher, AdminAuthProperties properties, Clock clock) {
        this.store = store;
        this.hasher = hasher;
        this.properties = properties;
        this.clock = clock;
    }

    /** A new token for the admin, or empty when the user name or password is wrong (both cost one bcrypt check). */
    public Optional<IssuedToken> issue(String username, String password) {
        byte[] given = password == null ? null : password.getBytes(StandardCharsets.UTF_8);
        Optional<AdminUser> user = username == null ? Optional.empty() : store.findUser(username);
        if (user.isEmpty()) {
            hasher.burnDecoy(given);
            log.warn("Admin token refused: unknown admin user '{}'", printable(username));
            return Optional.empty();
        }
        if (!hasher.matches(given, user.get().passwordHash())) {
            log.warn("Admin token refused: wrong password for admin user '{}'", printable(username));
            return Optional.empty();
        }
        Instant now = clock.instant();
        store.purgeExpiredTokens(now);
        byte[] raw = new byte[TOKEN_BYTES];
        random.nextBytes(raw);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
        Instant expiresAt = now.plus(properties.tokenTtl());
        store.insertToken(sha256(token), user.get().id(), now, expiresAt);
        log.info("Admin token issued to '{}', valid until {}", user.get().username(), expiresAt);
        return Optional.of(new IssuedToken(token, "Bearer", expiresAt));
    }

    /** The admin (name and tenant scope) when the token is valid now. */
    public Optional<AdminPrincipal> authenticate(String token) {
        if (token == null || token.isEmpty() || token.length() > 200) {
            return Optional.empty();
        }
        return store.validTokenOwner(sha256(token), clock.instant());
    }

    /** Revokes the token; false when it was not stored (already revoked or purged). */
    public boolean revoke(String token) {
        return store.deleteToken(sha256(token));
    }

    static String sha256(String token) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    private static String printable(String s) {
        return s == null ? null : s.replaceAll("\\p{Cntrl}", "?");
    }
}
