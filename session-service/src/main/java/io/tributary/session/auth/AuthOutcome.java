package io.tributary.session.auth;

/** What authenticating one CONNECT of a batch came to ({@link ConnectAuthenticator#authenticateAll}). */
public sealed interface AuthOutcome permits AuthOutcome.Admitted, AuthOutcome.Refused {

    /** Authenticated: who the client is and what it may do. */
    record Admitted(Authentication authentication) implements AuthOutcome {}

    /** Refused, already logged, counted and recorded. */
    record Refused(ConnectRefusedException refusal) implements AuthOutcome {}
}
