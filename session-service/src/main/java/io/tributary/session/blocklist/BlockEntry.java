package io.tributary.session.blocklist;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One block list entry as the admin API shows it: exactly one of {@code clientId}, {@code username} and {@code ip}
 * (an address or a CIDR range, as PostgreSQL prints it) is set.
 */
public record BlockEntry(
        long id,
        @Nullable String clientId,
        @Nullable String username,
        @Nullable String ip,
        @Nullable String reason,
        Instant createdAt) {}
