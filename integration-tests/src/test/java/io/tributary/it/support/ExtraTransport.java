package io.tributary.it.support;

import io.tributary.devstack.process.ServiceProcess;

/** A transport node started by {@link TributaryCluster#startTransport}; closing it stops the process. */
public record ExtraTransport(ServiceProcess process, int mqttPort, int managementPort) implements AutoCloseable {
    @Override
    public void close() {
        process.stop();
    }
}
