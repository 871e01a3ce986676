package io.tributary.session.admin;

import io.tributary.session.presence.Presence;

/**
 * One session with its presence in Redis.
 *
 * @param presence null when Redis has none (offline) or could not be asked ({@code presenceError} says why)
 */
public record SessionDetails(SessionView session, Presence presence, String presenceError) {
}
