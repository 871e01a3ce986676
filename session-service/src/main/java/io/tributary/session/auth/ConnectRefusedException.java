package io.tributary.session.auth;

import io.tributary.common.session.ConnectApi;

/** A CONNECT refused by authentication or authorization; answered 403 with a {@link ConnectApi.ConnectRefusal}. */
public class ConnectRefusedException extends RuntimeException {

    private final ConnectApi.RefusalReason reason;
    private final String metricCause;

    public ConnectRefusedException(ConnectApi.RefusalReason reason, String metricCause, String message) {
        super(message);
        this.reason = reason;
        this.metricCause = metricCause;
    }

    public ConnectApi.ConnectRefusal refusal() {
        return new ConnectApi.ConnectRefusal(reason, getMessage());
    }

    /** Short label of the cause: the {@code cause} tag of {@code tributary_auth_failures_total}. */
    public String metricCause() {
        return metricCause;
    }
}
