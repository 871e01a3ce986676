package io.tributary.session.auth;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** A credential as the admin API shows it: never the password, not even its hash. */
public record CredentialView(
        long id,
        @Nullable String username,
        @Nullable String clientId,
        boolean blocked,
        List<String> publish,
        List<String> subscribe,
        @Nullable String description,
        long version,
        Instant createdAt,
        Instant updatedAt,
        @Nullable String certificateCn,
        @Nullable String tenant) {

    static CredentialView of(Credential c) {
        return new CredentialView(
                c.id(),
                c.username(),
                c.clientId(),
                c.blocked(),
                c.publishAcl(),
                c.subscribeAcl(),
                c.description(),
                c.version(),
                c.createdAt(),
                c.updatedAt(),
                c.certificateCn(),
                c.tenant());
    }
}
