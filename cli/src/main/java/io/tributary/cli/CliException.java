package io.tributary.cli;

import org.jspecify.annotations.Nullable;

/** Ends the command with its exit code and, when it has one, one line on stderr ({@code tributary: <message>}). */
final class CliException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int exitCode;

    CliException(int exitCode, @Nullable String message) {
        super(message, null, false, false);
        this.exitCode = exitCode;
    }

    int exitCode() {
        return exitCode;
    }
}
