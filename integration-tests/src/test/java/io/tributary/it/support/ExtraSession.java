package io.tributary.it.support;

import io.tributary.devstack.process.ServiceProcess;

/** A second session-service instance; see {@link TributaryCluster#startSessionService}. */
public record ExtraSession(ServiceProcess process, SessionPorts ports) implements AutoCloseable {

    @Override
    public void close() {
        process.stop();
    }
}
