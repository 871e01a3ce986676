package io.tributary.it.support;

import io.tributary.devstack.net.Ports;
import io.tributary.devstack.process.ServiceProcess;
import java.util.List;

/**
 * Services a test starts beside the shared {@link TributaryCluster} for settings of its own (listeners, limits, a
 * second session-service), on the same engines and against the same session-service; logged with the others.
 */
final class ExtraServices {

    private final ServiceLauncher launcher;
    private final List<ServiceProcess> started;
    private final String sessionInternalUrl;

    ExtraServices(ServiceLauncher launcher, List<ServiceProcess> started, String sessionInternalUrl) {
        this.launcher = launcher;
        this.started = started;
        this.sessionInternalUrl = sessionInternalUrl;
    }

    /**
     * Starts one more transport node with its own settings on top of the shared ones (for listeners the shared nodes
     * do not open), connected to the same session-service, routing and Kafka, and waits until it is healthy. The
     * caller stops it; its sessions are then ended by node liveness like any stopped node's.
     */
    ExtraTransport startTransport(String nodeId, java.util.Map<String, Object> env) throws Exception {
        int mqttPort = Ports.freePort();
        int managementPort = Ports.freePort();
        ServiceProcess.Builder builder = launcher.transport(nodeId, mqttPort, managementPort, sessionInternalUrl)
                .env("TRIBUTARY_QOS2_EXACTLY_ONCE", "true");
        env.forEach(builder::env);
        ServiceProcess process = builder.build();
        started.add(process);
        process.start();
        process.awaitHealthy(managementPort, TributaryCluster.HEALTHY_WITHIN);
        return new ExtraTransport(process, mqttPort, managementPort);
    }

    /**
     * One more routing-service with the shared settings plus {@code env}, in the routers' consumer group unless
     * {@code env} names another; returns once it is healthy. The caller stops it. Its log is appended to on restarts.
     */
    ExtraRouter startRouter(String name, java.util.Map<String, Object> env) throws Exception {
        int managementPort = Ports.freePort();
        ServiceProcess.Builder builder = launcher.service(name, "tributary.jars.routing")
                .env("MANAGEMENT_PORT", managementPort)
                .env("TRIBUTARY_QUEUE_LIMIT", TributaryCluster.SESSION_QUEUE_LIMIT);
        env.forEach(builder::env);
        ServiceProcess process = builder.build();
        started.add(process);
        process.start();
        try {
            process.awaitHealthy(managementPort, TributaryCluster.HEALTHY_WITHIN);
        } catch (Exception | Error e) {
            System.err.println(process.tail(60));
            process.stop();
            throw e;
        }
        return new ExtraRouter(process, managementPort);
    }

    /**
     * One more session-service instance on the same engines and settings as the shared one (a second replica, as
     * a deployment scales it out), with a retained-message group of its own so the shared instance keeps its
     * partitions. The caller stops or kills it.
     */
    ExtraSession startSessionService(String name) throws Exception {
        SessionPorts ports = SessionPorts.free();
        ServiceProcess process = extraSession(name, ports)
                .env("TRIBUTARY_AUTH_ANONYMOUS", "true")
                .build();
        process.start();
        try {
            process.awaitHealthy(ports.management(), TributaryCluster.HEALTHY_WITHIN);
        } catch (Exception | Error e) {
            System.err.println(process.tail(60));
            process.stop();
            throw e;
        }
        return new ExtraSession(process, ports);
    }

    /**
     * A session-service process beside the shared one, on the same engines, with a retained-message group of its own
     * so the shared instance keeps all its partitions.
     */
    private ServiceProcess.Builder extraSession(String name, SessionPorts ports) {
        return launcher.session(name, ports)
                .env("RETAINED_CONSUMER_GROUP", "tributary-retained-" + name.replace("-session", ""));
    }

    /**
     * A session-service of its own (same engines, {@code sessionEnv} on top of the shared settings) with one transport
     * node that uses it: for settings the shared cluster cannot have, such as anonymous access off. Close it at the
     * end of the test; the node's sessions are then ended by node liveness like those of any stopped node.
     */
    Satellite startSatellite(String name, java.util.Map<String, String> sessionEnv) throws Exception {
        SessionPorts sessionPorts = SessionPorts.free();
        ServiceProcess.Builder sessionBuilder = extraSession(name + "-session", sessionPorts);
        sessionEnv.forEach(sessionBuilder::env);
        ServiceProcess satelliteSession = sessionBuilder.build();
        int mqttPort = Ports.freePort();
        int transportManagementPort = Ports.freePort();
        ServiceProcess satelliteTransport = launcher.transport(
                        name + "-node", mqttPort, transportManagementPort, sessionPorts.internalUrl())
                .build();
        Satellite satellite = new Satellite(satelliteSession, satelliteTransport, mqttPort);
        try {
            satelliteSession.start();
            satelliteTransport.start();
            satelliteSession.awaitHealthy(sessionPorts.management(), TributaryCluster.HEALTHY_WITHIN);
            satelliteTransport.awaitHealthy(transportManagementPort, TributaryCluster.HEALTHY_WITHIN);
        } catch (Exception | Error e) {
            System.err.println(satelliteSession.tail(60) + "\n" + satelliteTransport.tail(60));
            satellite.close();
            throw e;
        }
        return satellite;
    }
}
