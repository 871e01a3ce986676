package io.tributary.session.auth;

import java.nio.charset.StandardCharsets;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.stereotype.Component;

/**
 * bcrypt hashing of MQTT passwords. The MQTT password field is binary; it is read as UTF-8, which is what every
 * client that takes a password as text sends. bcrypt looks at 72 bytes at most, so longer passwords are refused
 * when set (a hash that silently ignores the tail would accept other passwords).
 */
@Component
public class PasswordHasher {

    public static final int MAX_PASSWORD_BYTES = 72;

    private final BCryptPasswordEncoder encoder;
    /**
     * A hash of nothing anybody knows, checked when no credential matched: an unknown user name then costs the same
     * time as a wrong password, so response times do not reveal which user names exist.
     */
    private final String decoy;

    @Autowired
    public PasswordHasher(AuthProperties properties) {
        this(properties.bcryptCost());
    }

    PasswordHasher(int cost) {
        this.encoder = new BCryptPasswordEncoder(cost);
        this.decoy = encoder.encode("decoy-" + System.nanoTime());
    }

    /** Why {@code password} cannot be set, or null. */
    public static String problem(String password) {
        if (password == null || password.isEmpty()) {
            return "password must not be empty";
        }
        if (password.getBytes(StandardCharsets.UTF_8).length > MAX_PASSWORD_BYTES) {
            return "password longer than " + MAX_PASSWORD_BYTES + " bytes (bcrypt ignores the rest)";
        }
        return null;
    }

    public String hash(String password) {
        String problem = problem(password);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return encoder.encode(password);
    }

    /** Whether the CONNECT password matches the stored hash; false for a missing or over-long password. */
    public boolean matches(byte[] password, String hash) {
        if (password == null || password.length > MAX_PASSWORD_BYTES) {
            return false;
        }
        try {
            return encoder.matches(new String(password, StandardCharsets.UTF_8), hash);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Spends the time of one verification without a hash to check against. */
    public void burnDecoy(byte[] password) {
        matches(password == null ? new byte[0] : password, decoy);
    }
}
