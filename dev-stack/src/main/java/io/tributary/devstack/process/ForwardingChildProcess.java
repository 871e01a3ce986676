package io.tributary.devstack.process;

import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * A {@link ChildProcess} that runs through another one (a {@link ManagedProcess}, or a {@link JavaMainProcess}) and
 * adds its own way of starting and waiting: the lifecycle and the log are the inner process's.
 */
public abstract class ForwardingChildProcess<P extends ChildProcess> implements ChildProcess {

    /** The process this one runs through. */
    protected final P process;

    protected ForwardingChildProcess(P process) {
        this.process = process;
    }

    @Override
    public String name() {
        return process.name();
    }

    @Override
    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public OptionalLong pid() {
        return process.pid();
    }

    @Override
    public OptionalLong exitCode() {
        return process.exitCode();
    }

    /** SIGTERM (the child shuts down gracefully), then SIGKILL after a grace period. */
    @Override
    public void stop() {
        process.stop();
    }

    /** SIGKILL: a crash, the child's data stays as the kernel left it. */
    @Override
    public void kill() {
        process.kill();
    }

    @Override
    public Path logFile() {
        return process.logFile();
    }

    @Override
    public String tail(int lines) {
        return process.tail(lines);
    }
}
