package io.tributary.session.auth;

import java.time.Instant;
import java.util.List;

/** A credential as the admin API shows it: never the password, not even its hash. */
public record CredentialView(long id, String username, String clientId, boolean blocked, List<String> publish,
        List<String> subscribe, String description, long version, Instant createdAt, Instant updatedAt,
        String certificateCn) {

    static CredentialView of(Credential c) {
        return new CredentialView(c.id(), c.username(), c.clientId(), c.blocked(), c.publishAcl(), c.subscribeAcl(),
                c.description(), c.version(), c.createdAt(), c.updatedAt(), c.certificateCn());
    }
}
