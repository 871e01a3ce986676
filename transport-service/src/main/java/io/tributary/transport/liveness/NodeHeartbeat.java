package io.tributary.transport.liveness;

import io.netty.handler.codec.mqtt.MqttReasonCodes.Disconnect;
import io.tributary.common.concurrent.DaemonThreads;
import io.tributary.common.session.LivenessApi;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.ConnectionRegistry;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.sessionclient.SessionServiceClient;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Tells session-service every {@code interval} that this node process (node id + a random incarnation) is alive,
 * from its own thread, never an event loop. Session-service declares an incarnation dead when it stops hearing from
 * it and ends the sessions still connected on it (publishing their wills).
 *
 * <p>CONNECTs are accepted only once the current incarnation is registered ({@link #registered()}), so no session
 * can belong to an incarnation session-service does not know — such a session could never be found dead. If
 * session-service answers that this incarnation was declared dead (the node was cut off longer than the timeout),
 * the node fences itself: it closes every connection without will or disconnect report (session-service has done
 * both) and registers a new incarnation.
 */
public final class NodeHeartbeat implements SmartLifecycle, NodeRegistration {

    private static final Logger log = LoggerFactory.getLogger(NodeHeartbeat.class);

    private final String nodeId;
    private final SessionServiceClient sessions;
    private final Duration interval;
    private final Duration firstBeatWait;
    private final ConnectionRegistry registry;
    private final Disconnector disconnector;
    private final AtomicBoolean inFlight = new AtomicBoolean();
    private volatile String incarnation = newIncarnation();
    private volatile boolean registered;
    private volatile Instant lastSuccess;
    private volatile String lastFailure;
    private volatile boolean failing;
    private ScheduledExecutorService timer;

    public NodeHeartbeat(
            String nodeId,
            SessionServiceClient sessions,
            Duration interval,
            Duration firstBeatWait,
            ConnectionRegistry registry,
            Disconnector disconnector) {
        this.nodeId = nodeId;
        this.sessions = sessions;
        this.interval = interval;
        this.firstBeatWait = firstBeatWait;
        this.registry = registry;
        this.disconnector = disconnector;
    }

    @Override
    public String incarnation() {
        return incarnation;
    }

    @Override
    public boolean registered() {
        return registered;
    }

    public Instant lastSuccess() {
        return lastSuccess;
    }

    public String lastFailure() {
        return lastFailure;
    }

    @Override
    public void start() {
        timer = DaemonThreads.scheduler("node-heartbeat");
        // The first beat before the listener opens (a later lifecycle phase), so clients are normally accepted from
        // the start; if session-service is not up yet the listener opens anyway and CONNECTs wait for a later beat.
        try {
            beat().get(firstBeatWait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            log.warn(
                    "Node {} not registered with session-service yet (retrying every {} ms): {}",
                    nodeId,
                    interval.toMillis(),
                    e.getMessage());
        }
        timer.scheduleAtFixedRate(
                this::beatUnlessBusy, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void beatUnlessBusy() {
        // A slow session-service must not pile up heartbeats; the next tick tries again.
        if (inFlight.compareAndSet(false, true)) {
            beat().whenComplete((ok, e) -> inFlight.set(false));
        }
    }

    private java.util.concurrent.CompletableFuture<Void> beat() {
        String current = incarnation;
        return sessions.heartbeat(new LivenessApi.HeartbeatRequest(nodeId, current))
                .handle((response, failure) -> {
                    if (failure != null) {
                        Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
                        lastFailure = cause.getMessage();
                        if (!failing) {
                            failing = true;
                            log.warn("Heartbeat of node {} failed: {}", nodeId, cause.getMessage());
                        }
                        throw failure instanceof CompletionException ce ? ce : new CompletionException(failure);
                    }
                    if (failing) {
                        failing = false;
                        log.info("Heartbeats of node {} reach session-service again", nodeId);
                    }
                    lastSuccess = Instant.now();
                    if (response != null && response.declaredDead()) {
                        fence(current);
                    } else if (current.equals(incarnation) && !registered) {
                        registered = true;
                        log.info("Node {} registered with session-service as incarnation {}", nodeId, current);
                    }
                    return null;
                });
    }

    /**
     * Session-service declared {@code deadIncarnation} dead and ended its sessions. Every connection still open here
     * is a zombie: close it (MQTT 5 reason 0x80) without will or disconnect report, and start a new incarnation.
     */
    private synchronized void fence(String deadIncarnation) {
        if (!deadIncarnation.equals(incarnation)) {
            return;
        }
        registered = false;
        incarnation = newIncarnation();
        int closed = 0;
        for (ClientConnection connection : registry.all()) {
            closed++;
            connection.channel().eventLoop().execute(() -> {
                connection.markFenced();
                disconnector.disconnect(
                        connection.channel(),
                        Disconnect.UNSPECIFIED_ERROR,
                        null,
                        "node was declared dead by session-service; its sessions were ended");
            });
        }
        log.warn(
                "Node {} incarnation {} was declared dead by session-service (missed heartbeats): closed {} "
                        + "connection(s), registering as incarnation {}",
                nodeId,
                deadIncarnation,
                closed,
                incarnation);
        timer.execute(this::beatUnlessBusy);
    }

    @Override
    public void stop() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    @Override
    public boolean isRunning() {
        return timer != null && !timer.isShutdown();
    }

    /** Before the MQTT listener ({@code Integer.MAX_VALUE - 100}), so the first beat precedes the first client. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 200;
    }

    private static String newIncarnation() {
        return UUID.randomUUID().toString();
    }
}
