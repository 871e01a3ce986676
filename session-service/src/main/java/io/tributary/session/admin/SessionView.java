package io.tributary.session.admin;

import java.time.Instant;

import io.tributary.session.store.SessionRecord;

/** A session as the admin API shows it. */
public record SessionView(
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
        Instant expiresAt) {

    public static SessionView of(SessionRecord r) {
        return new SessionView(r.clientId(), r.nodeId(), r.epoch(), r.connected(), r.cleanStart(),
                r.sessionExpirySeconds(), r.protocolVersion(), r.keepAliveSeconds(), r.remoteAddress(),
                r.username(), r.connectedAt(), r.disconnectedAt(), r.expiresAt());
    }
}
