package io.tributary.perf.load;

import io.tributary.perf.client.ClientEvents;
import io.tributary.perf.client.Connector;
import io.tributary.perf.client.MqttLoadClient;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Opens a group's connections at its ramp rate: every few milliseconds, as many as the rate allows since the group
 * started. Connects are asynchronous, so one thread keeps up with thousands per second.
 */
final class ConnectionRamp {

    private static final long TICK_MILLIS = 5;

    private ConnectionRamp() {}

    /**
     * Opens all connections of {@code group}, appending the clients to {@code into}.
     *
     * @param stop checked every tick; true ends the ramp early (deadline, shutdown)
     * @return how many were opened
     */
    static int open(
            GroupPlan group, Connector connector, ClientEvents events, List<MqttLoadClient> into, BooleanSupplier stop)
            throws InterruptedException {
        long start = System.nanoTime();
        int opened = 0;
        while (opened < group.count()) {
            if (stop.getAsBoolean()) {
                return opened;
            }
            double elapsed = (System.nanoTime() - start) / 1e9;
            long allowed = Math.min(group.count(), (long) (elapsed * group.rampPerSecond()) + 1);
            while (opened < allowed) {
                into.add(connector.connect(group.plan().apply(opened), events));
                opened++;
            }
            if (opened < group.count()) {
                Thread.sleep(TICK_MILLIS);
            }
        }
        return opened;
    }
}
