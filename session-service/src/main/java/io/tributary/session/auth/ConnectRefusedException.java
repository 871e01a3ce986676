package io.tributary.session.auth;

import io.tributary.common.session.SessionApi;

/** A CONNECT refused by authentication or authorization; answered 403 with a {@link SessionApi.ConnectRefusal}. */
public class ConnectRefusedException extends RuntimeException {

    private final SessionApi.RefusalReason reason;
    private final String metricCause;

    public ConnectRefusedException(SessionApi.RefusalReason reason, String metricCause, String message) {
        super(message);
        this.reason = reason;
        this.metricCause = metricCause;
    }

    public SessionApi.ConnectRefusal refusal() {
        return new SessionApi.ConnectRefusal(reason, getMessage());
    }

    /** Short label of the cause: the {@code cause} tag of {@code tributary_auth_failures_total}. */
    public String metricCause() {
        return metricCause;
    }
}
