package io.tributary.session.presence;

import java.time.Instant;

/** Where a client is connected right now, as kept in Redis. */
public record Presence(String nodeId, long epoch, Instant connectedAt) {}
