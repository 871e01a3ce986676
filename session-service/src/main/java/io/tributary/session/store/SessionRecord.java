package io.tributary.session.store;

import java.time.Instant;

/** One row of {@code sessions}. */
public record SessionRecord(
        String clientId,
        String nodeId,
        long epoch,
        boolean connected,
        boolean cleanStart,
        long sessionExpirySeconds,
        int protocolVersion,
        int keepAliveSeconds,
        String remoteAddress,
        String username,
        Instant connectedAt,
        Instant disconnectedAt,
        Instant expiresAt) {}
