package io.tributary.session.admin;

import io.tributary.session.presence.Presence;
import org.jspecify.annotations.Nullable;

/**
 * One session with its presence and its session queue in Redis.
 *
 * @param presence      null when Redis has none (offline) or could not be asked ({@code presenceError} says why)
 * @param queue         the session queue: messages waiting (QoS 1/2, not yet acknowledged), dropped because it
 *                      was full, last sequence; null when Redis could not be asked
 */
public record SessionDetails(
        SessionView session,
        @Nullable Presence presence,
        @Nullable String presenceError,
        @Nullable SessionQueueStats queue) {}
