package io.tributary.session.admin;

import io.tributary.session.store.SessionRecord;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** A session as the admin API shows it. */
public record SessionView(
        String clientId,
        @Nullable String nodeId,
        long epoch,
        boolean connected,
        boolean cleanStart,
        long sessionExpirySeconds,
        int protocolVersion,
        int keepAliveSeconds,
        @Nullable String remoteAddress,
        @Nullable String username,
        @Nullable Instant connectedAt,
        @Nullable Instant disconnectedAt,
        @Nullable Instant expiresAt) {

    public static SessionView of(SessionRecord r) {
        return new SessionView(
                r.clientId(),
                r.nodeId(),
                r.epoch(),
                r.connected(),
                r.cleanStart(),
                r.sessionExpirySeconds(),
                r.protocolVersion(),
                r.keepAliveSeconds(),
                r.remoteAddress(),
                r.username(),
                r.connectedAt(),
                r.disconnectedAt(),
                r.expiresAt());
    }
}
