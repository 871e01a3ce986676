package io.tributary.session.blocklist;

import io.tributary.common.net.IpRange;
import io.tributary.session.web.ApiException;
import org.jspecify.annotations.Nullable;

/**
 * Body of {@code POST /api/v1/auth/blocklist}: exactly one of a client id, a user name or an IP address / CIDR range,
 * and an optional reason for the operators.
 */
public record BlockRequest(
        @Nullable String clientId,
        @Nullable String username,
        @Nullable String ip,
        @Nullable String reason) {

    private static final int MAX_LENGTH = 65_535;
    private static final int MAX_REASON = 1_000;

    /** The validated entry: the IP range normalised (host bits cleared); 400 with a message otherwise. */
    public BlockRequest checked() {
        int given = (clientId != null ? 1 : 0) + (username != null ? 1 : 0) + (ip != null ? 1 : 0);
        if (given != 1) {
            throw ApiException.badRequest("exactly one of clientId, username and ip is required");
        }
        if ((clientId != null && clientId.isEmpty()) || (username != null && username.isEmpty())) {
            throw ApiException.badRequest("clientId and username must not be empty");
        }
        if ((clientId != null && clientId.length() > MAX_LENGTH)
                || (username != null && username.length() > MAX_LENGTH)) {
            throw ApiException.badRequest("clientId and username are at most 65535 characters");
        }
        if (reason != null && reason.length() > MAX_REASON) {
            throw ApiException.badRequest("reason is at most " + MAX_REASON + " characters");
        }
        String range = null;
        if (ip != null) {
            try {
                range = IpRange.parse(ip).toString();
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest("ip: " + e.getMessage());
            }
        }
        return new BlockRequest(clientId, username, range, reason);
    }
}
