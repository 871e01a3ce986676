package io.tributary.session.auth;

import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.ConnectApi.RefusalReason;
import io.tributary.session.throttle.FailureThrottle;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * Failed CONNECT authentications per (identity, source address) and per source address ({@link FailureThrottle},
 * limits from {@link AuthProperties.FailureBackOff}): past a limit, a CONNECT with a password or token from that
 * address is refused before anything is checked, so a flood of wrong passwords costs no bcrypt and a guesser gets a
 * bounded number of tries. The identity is the user name, or the client id when there is none. Only a CONNECT that
 * carries a secret is counted and held back: certificate and anonymous CONNECTs are not.
 */
@Component
public class ConnectBackOff {

    /** The {@code cause} tag of the refusals, in {@code tributary_auth_failures_total} and the log line. */
    static final String CAUSE = "auth_back_off";

    private final FailureThrottle throttle;

    public ConnectBackOff(AuthProperties properties, Clock clock) {
        AuthProperties.FailureBackOff limits = properties.failureBackOff();
        this.throttle = new FailureThrottle(
                limits.maxFailuresPerIdentity(), limits.maxFailuresPerAddress(), limits.window(), clock);
    }

    /** @throws ConnectRefusedException (connection rate exceeded) while the request's address is held back */
    void check(ConnectApi.ConnectRequest request) {
        String address = counted(request);
        if (address == null) {
            return;
        }
        Optional<Duration> wait = throttle.refusal(identity(request), address);
        if (wait.isPresent()) {
            long seconds = Math.max(1, wait.get().toSeconds() + (wait.get().toMillisPart() > 0 ? 1 : 0));
            throw new ConnectRefusedException(
                    RefusalReason.CONNECTION_RATE_EXCEEDED,
                    CAUSE,
                    "too many failed authentications from this address: try again in " + seconds + " s");
        }
    }

    /** A refusal of {@code request}'s secret (not of its authorization) counts against its address. */
    void refused(ConnectApi.ConnectRequest request, ConnectRefusedException refusal) {
        String address = counted(request);
        if (address != null && refusal.refusal().reason() == RefusalReason.BAD_USERNAME_OR_PASSWORD) {
            throttle.failed(identity(request), address);
        }
    }

    /** The secret was right: the (identity, address) count starts again; the address's does not. */
    void accepted(ConnectApi.ConnectRequest request) {
        String address = counted(request);
        if (address != null) {
            throttle.succeeded(identity(request), address);
        }
    }

    /** The address a request with a secret is counted under; null when it is not counted. */
    private static String counted(ConnectApi.ConnectRequest request) {
        if (request.password() == null) {
            return null;
        }
        String ip = ClientAddresses.ip(request.remoteAddress());
        return ip.equals("unknown") ? null : ip;
    }

    private static String identity(ConnectApi.ConnectRequest request) {
        return request.username() != null ? "u:" + request.username() : "c:" + request.clientId();
    }
}
