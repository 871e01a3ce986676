package io.tributary.devstack.process;

import java.nio.file.Path;
import java.util.OptionalLong;

/** What a launcher or a test can do with any process the dev stack started. */
public interface ChildProcess extends AutoCloseable {

    String name();

    boolean isAlive();

    /** The pid of the running (or last) process; empty before the first start. */
    OptionalLong pid();

    /** The exit code once the process has ended. */
    OptionalLong exitCode();

    /** SIGTERM, a grace period, then SIGKILL. */
    void stop();

    /** SIGKILL at once, as in a crash. */
    void kill();

    Path logFile();

    /** The last lines of the log, e.g. to print when something fails. */
    String tail(int lines);

    @Override
    default void close() {
        stop();
    }
}
