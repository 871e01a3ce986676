package io.tributary.it.support;

import io.tributary.devstack.process.ServiceProcess;

/** A session-service and a transport node beside the shared cluster; see {@link TributaryCluster#startSatellite}. */
public record Satellite(ServiceProcess session, ServiceProcess transport, int mqttPort) implements AutoCloseable {

    public String logTails(int lines) {
        return "----- " + session.name() + " -----\n" + session.tail(lines) + "\n----- " + transport.name() + " -----\n"
                + transport.tail(lines);
    }

    @Override
    public void close() {
        transport.stop();
        session.stop();
    }
}
