package io.tributary.perf.scenario;

import java.time.Duration;
import java.util.List;

/**
 * What every group (publishers or subscribers) says about its connections.
 *
 * @param name            group name, used in {@code {group}} and in results
 * @param count           connections in the group
 * @param clientId        client identifier template ({@code {n}}, {@code {i}}, {@code {group}}, {@code {run}})
 * @param protocol        MQTT 3.1.1 or 5
 * @param qos             QoS of the subscription or of the publishes
 * @param rampPerSecond   new connections per second while this group connects
 * @param cleanStart      clean start (MQTT 5) / clean session (3.1.1)
 * @param sessionExpiry   MQTT 5 session expiry interval; zero ends the session with the connection
 * @param keepAlive       keep alive; the client sends PINGREQ when it has written nothing for that long
 * @param targets         endpoints; connections are spread over them round robin
 */
public record ClientSettings(
        String name,
        int count,
        TextTemplate clientId,
        MqttProtocol protocol,
        int qos,
        double rampPerSecond,
        boolean cleanStart,
        Duration sessionExpiry,
        Duration keepAlive,
        List<Endpoint> targets) {

    public ClientSettings {
        targets = List.copyOf(targets);
    }

    public ClientSettings withCount(int newCount) {
        return new ClientSettings(
                name, newCount, clientId, protocol, qos, rampPerSecond, cleanStart, sessionExpiry, keepAlive, targets);
    }

    public ClientSettings withRamp(double newRampPerSecond) {
        return new ClientSettings(
                name, count, clientId, protocol, qos, newRampPerSecond, cleanStart, sessionExpiry, keepAlive, targets);
    }

    public ClientSettings withTargets(List<Endpoint> newTargets) {
        return new ClientSettings(
                name, count, clientId, protocol, qos, rampPerSecond, cleanStart, sessionExpiry, keepAlive, newTargets);
    }

    /** Seconds it takes this group to connect at its ramp rate. */
    public double rampSeconds() {
        return count / rampPerSecond;
    }
}
