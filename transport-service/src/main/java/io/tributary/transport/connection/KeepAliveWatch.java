package io.tributary.transport.connection;

import io.netty.handler.codec.mqtt.MqttReasonCodes.Disconnect;
import io.tributary.common.concurrent.DaemonThreads;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes connections whose client sent nothing for one and a half keep-alive periods (MQTT 3.1.1 and 5.0 section
 * 3.1.2.10; 0x8D Keep Alive timeout for MQTT 5). One watch per node sweeps the registered connections every tick,
 * instead of an idle-state handler and a scheduled task per connection: those cost ~340 bytes of heap on each of a
 * node's connections (class histogram at 15,000 held connections), this costs one volatile timestamp. A client is
 * closed at most one tick after its deadline; the event loop of its channel checks again before closing, so a packet
 * that arrived meanwhile keeps it.
 */
public final class KeepAliveWatch implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KeepAliveWatch.class);

    private final ConnectionRegistry registry;
    private final Disconnector disconnector;
    private final Duration tick;
    private ScheduledExecutorService timer;

    public KeepAliveWatch(ConnectionRegistry registry, Disconnector disconnector, Duration tick) {
        this.registry = registry;
        this.disconnector = disconnector;
        this.tick = tick;
    }

    public void start() {
        timer = DaemonThreads.scheduler("keep-alive-watch");
        timer.scheduleWithFixedDelay(this::sweep, tick.toMillis(), tick.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One pass over the node's connections; expired ones are closed on their own event loops. */
    void sweep() {
        try {
            long now = System.nanoTime();
            for (ClientConnection connection : registry.all()) {
                if (connection.keepAliveExpired(now)) {
                    connection.channel().eventLoop().execute(() -> closeIfStillSilent(connection));
                }
            }
        } catch (RuntimeException e) {
            // A sweep that failed must not end the schedule (scheduleWithFixedDelay stops at the first exception).
            log.warn("Keep-alive sweep failed: {}", e.toString());
        }
    }

    private void closeIfStillSilent(ClientConnection connection) {
        if (connection.channel().isActive() && connection.keepAliveExpired(System.nanoTime())) {
            disconnector.disconnect(
                    connection.channel(),
                    Disconnect.KEEP_ALIVE_TIMEOUT,
                    "keep_alive_timeout",
                    "no packet within 1.5 x keep alive (" + connection.keepAliveSeconds() + " s)");
        }
    }

    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
