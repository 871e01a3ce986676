package io.tributary.devstack.process;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The settings every process builder of the dev stack shares: environment, log file, console echo, session and
 * JVM-exit behaviour. {@code B} is the concrete builder, so the setters chain with its own methods.
 */
public abstract class ProcessSettings<B extends ProcessSettings<B>> {

    private final Map<String, String> environment = new LinkedHashMap<>();
    private Path logFile;
    private boolean echo;
    private boolean detached;
    private boolean stopOnJvmExit = true;

    protected ProcessSettings() {}

    /** Adds one variable to the inherited environment. */
    public B env(String name, Object value) {
        environment.put(name, String.valueOf(value));
        return self();
    }

    /** Adds variables to the inherited environment. */
    public B environment(Map<String, String> variables) {
        environment.putAll(variables);
        return self();
    }

    /** stdout and stderr are appended there. */
    public B logFile(Path logFile) {
        this.logFile = logFile;
        return self();
    }

    /** Also echo each log line to the console as {@code [name] line}. */
    public B echo(boolean echo) {
        this.echo = echo;
        return self();
    }

    /** Run in a session of its own (setsid, where available), out of reach of the terminal's Ctrl-C. */
    public B detached(boolean detached) {
        this.detached = detached;
        return self();
    }

    /**
     * Stop the process when this JVM exits (default). A launcher that stops its children in a given order itself
     * turns this off, since JVM shutdown hooks run concurrently.
     */
    public B stopOnJvmExit(boolean stopOnJvmExit) {
        this.stopOnJvmExit = stopOnJvmExit;
        return self();
    }

    /** Copies these settings onto the builder of the process this one runs through, and returns that builder. */
    protected <T extends ProcessSettings<T>> T applyTo(T target) {
        target.environment(environment);
        if (logFile != null) {
            target.logFile(logFile);
        }
        return target.echo(echo).detached(detached).stopOnJvmExit(stopOnJvmExit);
    }

    Map<String, String> environment() {
        return environment;
    }

    Path logFile() {
        return logFile;
    }

    boolean echo() {
        return echo;
    }

    boolean detached() {
        return detached;
    }

    boolean stopOnJvmExit() {
        return stopOnJvmExit;
    }

    @SuppressWarnings("unchecked")
    final B self() {
        return (B) this;
    }
}
