package io.tributary.session.adminauth;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** A stored admin user of the REST API; {@code tenant} null: an admin of the whole cluster. */
public record AdminUser(
        long id,
        String username,
        String passwordHash,
        @Nullable String tenant,
        Instant createdAt) {

    @Override
    public String toString() {
        return "AdminUser[id=" + id + ", username=" + username + ", tenant=" + tenant + "]";
    }
}
