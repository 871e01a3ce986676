package io.tributary.session.auth;

import java.time.Instant;
import java.util.List;

/**
 * A stored credential. {@code username} and {@code clientId} say what it matches (at least one is set); the ACL
 * lists are templates with placeholders.
 */
public record Credential(long id, String username, String clientId, String passwordHash, boolean blocked,
        List<String> publishAcl, List<String> subscribeAcl, String description, long version, Instant createdAt,
        Instant updatedAt) {

    /** How closely it fits a CONNECT: user name and client id both, then user name only, then client id only. */
    int specificity() {
        return (username != null ? 2 : 0) + (clientId != null ? 1 : 0);
    }

    @Override
    public String toString() {
        return "Credential[id=" + id + ", username=" + username + ", clientId=" + clientId + ", blocked=" + blocked
                + "]";
    }
}
