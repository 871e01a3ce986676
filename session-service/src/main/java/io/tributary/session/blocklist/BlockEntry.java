package io.tributary.session.blocklist;

import java.time.Instant;

/**
 * One block list entry as the admin API shows it: exactly one of {@code clientId}, {@code username} and {@code ip}
 * (an address or a CIDR range, as PostgreSQL prints it) is set.
 */
public record BlockEntry(long id, String clientId, String username, String ip, String reason, Instant createdAt) {
}
