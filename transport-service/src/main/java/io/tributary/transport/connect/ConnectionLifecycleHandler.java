package io.tributary.transport.connect;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.tributary.common.kafka.RetainedRecordFormat;
import io.tributary.common.session.DisconnectApi;
import io.tributary.common.session.WillDelay;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.ConnectionRegistry;
import io.tributary.transport.connection.WillMessage;
import io.tributary.transport.index.LocalSubscriptions;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.publish.PublishRecords;
import io.tributary.transport.sessionclient.SessionServiceClient;
import io.tributary.transport.uplink.PublishProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What happens when an accepted connection ends, however it ends: its local subscriptions and registry entry go,
 * its will is published (or handed to session-service when it has a delay) unless it disconnected normally, and
 * session-service is told, with what became of the will (unless a newer connection already owns the session, in
 * which case session-service would ignore the stale epoch anyway).
 */
@ChannelHandler.Sharable
public final class ConnectionLifecycleHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(ConnectionLifecycleHandler.class);

    private final String nodeId;
    private final ConnectionRegistry registry;
    private final LocalSubscriptions subscriptions;
    private final SessionServiceClient sessions;
    private final PublishProducer producer;
    private final TransportMetrics metrics;

    public ConnectionLifecycleHandler(
            String nodeId,
            ConnectionRegistry registry,
            LocalSubscriptions subscriptions,
            SessionServiceClient sessions,
            PublishProducer producer,
            TransportMetrics metrics) {
        this.nodeId = nodeId;
        this.registry = registry;
        this.subscriptions = subscriptions;
        this.sessions = sessions;
        this.producer = producer;
        this.metrics = metrics;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        ClientConnection connection = ClientConnection.of(ctx.channel());
        if (connection != null) {
            subscriptions.removeAll(connection);
            registry.unregister(connection);
            connection.meter().disconnected();
            int undelivered = connection.outbound().undelivered();
            for (int i = 0; i < undelivered; i++) {
                metrics.dropped("connection_closed");
            }
            if (!connection.fenced()) {
                DisconnectApi.WillOutcome outcome = handleWill(connection);
                if (!connection.takenOver()) {
                    DisconnectApi.DisconnectRequest request = new DisconnectApi.DisconnectRequest(
                            connection.clientId(),
                            connection.epoch(),
                            nodeId,
                            connection.sessionExpirySeconds(),
                            outcome);
                    connection
                            .serialSessionCall(() -> sessions.disconnect(request))
                            .whenComplete((ok, failure) -> {
                                if (failure != null) {
                                    log.warn(
                                            "Could not record the disconnect of {}: {}",
                                            connection,
                                            failure.getMessage());
                                }
                            });
                }
            }
        }
        super.channelInactive(ctx);
    }

    /**
     * A will still attached here is due (DisconnectHandler drops it at a normal DISCONNECT without reason 0x04).
     * Without a delay it is published now, from here; with one, session-service holds it and publishes it when the
     * delay is over, unless the client connects again first. A connection taken over is that reconnect: its delayed
     * will is cancelled (session-service already replaced it with the new connection's).
     */
    private DisconnectApi.WillOutcome handleWill(ClientConnection connection) {
        WillMessage will = connection.will();
        if (will == null) {
            return DisconnectApi.WillOutcome.DISCARD;
        }
        long delay = WillDelay.effectiveSeconds(will.delaySeconds(), connection.sessionExpirySeconds());
        if (delay == 0) {
            publishWill(connection, will);
            return DisconnectApi.WillOutcome.PUBLISHED;
        }
        return connection.takenOver() ? DisconnectApi.WillOutcome.DISCARD : DisconnectApi.WillOutcome.SCHEDULE;
    }

    private void publishWill(ClientConnection connection, WillMessage will) {
        var record = PublishRecords.toRecord(
                will.topic(),
                will.payload(),
                will.qos(),
                will.retain(),
                connection.clientId(),
                connection.version(),
                nodeId,
                connection.isMqtt5() ? will.properties() : null,
                System.currentTimeMillis());
        metrics.publishIn(will.qos());
        // A retained will also goes to the retained topic, from the same producer (same key, same order).
        producer.sendAll(RetainedRecordFormat.withCopies(java.util.List.of(record)), failure -> {
            if (failure != null) {
                log.warn("Will of {} was not published: {}", connection, failure.getMessage());
            }
        });
    }
}
