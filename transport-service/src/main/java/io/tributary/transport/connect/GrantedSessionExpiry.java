package io.tributary.transport.connect;

import io.tributary.common.session.ConnectApi;

/**
 * The Session Expiry Interval a connection's session has: what the client asked for (MQTT 3.1.1 clean session 0:
 * never), lowered by session-service to its maximum ({@code SESSION_EXPIRY_MAX}), which decides it for the whole
 * cluster and stores it. An MQTT 5 client is told in CONNACK when it differs from its request (MQTT 5 3.2.2.3.2: the
 * client uses the server's value).
 */
final class GrantedSessionExpiry {

    private GrantedSessionExpiry() {}

    /** @param requested what the CONNECT asked for; also the answer of an older session-service that does not say */
    static long of(long requested, ConnectApi.ConnectResponse response) {
        Long granted = response.sessionExpirySeconds();
        return granted == null ? requested : granted;
    }
}
