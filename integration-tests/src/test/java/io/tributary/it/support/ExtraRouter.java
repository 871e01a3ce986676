package io.tributary.it.support;

import io.tributary.devstack.process.ServiceProcess;

/** A routing-service started by {@link TributaryCluster#startRouter}; closing it stops the process. */
public record ExtraRouter(ServiceProcess process, int managementPort) implements AutoCloseable {

    /** SIGTERM, then start again with the same settings; returns once it is healthy. */
    public void restart() throws Exception {
        process.stop();
        process.start();
        process.awaitHealthy(managementPort, TributaryCluster.HEALTHY_WITHIN);
    }

    @Override
    public void close() {
        process.stop();
    }
}
