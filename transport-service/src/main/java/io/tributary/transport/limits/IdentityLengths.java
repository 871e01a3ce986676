package io.tributary.transport.limits;

import io.netty.handler.codec.mqtt.MqttConnectPayload;

/**
 * The bounds on the two strings of a CONNECT that the client chooses and the cluster keys state by: the client
 * identifier (sessions, presence, failed-authentication counts) and the user name. MQTT lets each be 65,535 bytes;
 * a node takes at most {@link LimitsProperties#maxClientIdLength} and {@link LimitsProperties#maxUsernameLength}.
 * Pure: no I/O, no state.
 */
final class IdentityLengths {

    /** Characters of a client identifier shown in a log line; a longer one is cut and its length given. */
    static final int LOGGED_CHARS = 64;

    /** Which of the two is too long. */
    enum Excess {
        CLIENT_ID,
        USERNAME
    }

    /** What is too long in one CONNECT, and by how much. */
    record Problem(Excess what, int bytes, int limit) {
        String describe() {
            return (what == Excess.CLIENT_ID ? "client identifier" : "user name") + " of " + bytes
                    + " bytes is longer than the " + limit + " allowed";
        }
    }

    private IdentityLengths() {}

    /** The first bound the CONNECT passes, client identifier first; null when it passes neither. */
    static Problem problem(MqttConnectPayload payload, LimitsProperties limits) {
        Problem id = over(Excess.CLIENT_ID, payload.clientIdentifier(), limits.maxClientIdLength());
        return id != null ? id : over(Excess.USERNAME, payload.userName(), limits.maxUsernameLength());
    }

    private static Problem over(Excess what, String value, int limit) {
        // A string of n chars takes at least n bytes: the count is skipped for the usual short ones.
        if (limit == 0 || value == null || value.length() <= limit / 3) {
            return null;
        }
        int bytes = utf8Length(value);
        return bytes > limit ? new Problem(what, bytes, limit) : null;
    }

    /** Bytes of {@code s} in UTF-8 (an unpaired surrogate counts as the 3 bytes of its replacement). */
    static int utf8Length(CharSequence s) {
        int bytes = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /**
     * The client identifier as a log line shows it: whole up to {@link #LOGGED_CHARS} characters, else cut there and
     * followed by its full length, so that a client cannot fill the log with a 64 KiB identifier.
     */
    static String forLog(String clientId) {
        if (clientId == null || clientId.length() <= LOGGED_CHARS) {
            return clientId;
        }
        return clientId.substring(0, LOGGED_CHARS) + "...(" + clientId.length() + " characters)";
    }
}
