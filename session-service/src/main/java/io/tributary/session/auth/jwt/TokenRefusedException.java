package io.tributary.session.auth.jwt;

/**
 * A token {@link JwtVerifier} does not accept. The connect path answers it as a refused CONNECT (bad user name or
 * password); it is its own type so that jwt does not lean back on the auth package that uses it.
 */
public class TokenRefusedException extends RuntimeException {

    private final String metricCause;

    public TokenRefusedException(String metricCause, String message) {
        super(message);
        this.metricCause = metricCause;
    }

    /** Short label of the cause: the {@code cause} tag of {@code tributary_auth_failures_total}. */
    public String metricCause() {
        return metricCause;
    }
}
