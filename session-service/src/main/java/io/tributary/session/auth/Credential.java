package io.tributary.session.auth;

import java.time.Instant;
import java.util.List;

/**
 * A stored credential. {@code username} and {@code clientId} say what it matches (at least one is set); the ACL
 * lists are templates with placeholders. {@code certificateCn}, when set, lets a mutual-TLS CONNECT presenting that
 * certificate CN in without a password; {@code passwordHash} is null for a credential usable only that way.
 * {@code tenant} is the tenant whose namespace its clients live in, null for the global namespace.
 */
public record Credential(
        long id,
        String username,
        String clientId,
        String passwordHash,
        boolean blocked,
        List<String> publishAcl,
        List<String> subscribeAcl,
        String description,
        long version,
        Instant createdAt,
        Instant updatedAt,
        String certificateCn,
        String tenant) {

    /** How closely it fits a CONNECT: user name and client id both, then user name only, then client id only. */
    int specificity() {
        return (username != null ? 2 : 0) + (clientId != null ? 1 : 0);
    }

    @Override
    public String toString() {
        return "Credential[id=" + id + ", username=" + username + ", clientId=" + clientId + ", blocked=" + blocked
                + ", certificateCn=" + certificateCn + ", tenant=" + tenant + "]";
    }
}
