package io.tributary.cli;

/** The CLI's exit codes, as scripts rely on them. */
final class ExitCodes {

    static final int OK = 0;
    /** The API refused the call (4xx/5xx; its message on stderr), or a local step failed. */
    static final int REFUSED = 1;
    /** Wrong usage: an unknown command or option, a missing or malformed argument. */
    static final int USAGE = 2;
    /** The server cannot be reached. */
    static final int UNREACHABLE = 3;
    /** Not signed in, or the token was rejected (401). */
    static final int UNAUTHENTICATED = 4;
    /** {@code health}: no live transport node, or a service group without members. */
    static final int UNHEALTHY = 5;

    private ExitCodes() {}
}
