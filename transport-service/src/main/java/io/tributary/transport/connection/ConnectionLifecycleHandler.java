package io.tributary.transport.connection;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.tributary.common.session.SessionApi;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.publish.PublishRecords;
import io.tributary.transport.publish.WillMessage;
import io.tributary.transport.sessionclient.SessionServiceClient;
import io.tributary.transport.subscribe.LocalSubscriptions;
import io.tributary.transport.uplink.PublishProducer;

/**
 * What happens when an accepted connection ends, however it ends: its local subscriptions and registry entry go,
 * its will is published unless it disconnected normally, and session-service is told (unless a newer connection
 * already owns the session, in which case session-service would ignore the stale epoch anyway).
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

    public ConnectionLifecycleHandler(String nodeId, ConnectionRegistry registry, LocalSubscriptions subscriptions,
            SessionServiceClient sessions, PublishProducer producer, TransportMetrics metrics) {
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
            int undelivered = connection.inflight().size() + connection.queued().size();
            for (int i = 0; i < undelivered; i++) {
                metrics.dropped("connection_closed");
            }
            WillMessage will = connection.will();
            if (will != null && !connection.normalDisconnect()) {
                publishWill(connection, will);
            }
            if (!connection.takenOver()) {
                SessionApi.DisconnectRequest request = new SessionApi.DisconnectRequest(connection.clientId(),
                        connection.epoch(), nodeId, connection.sessionExpirySeconds());
                connection.serialSessionCall(() -> sessions.disconnect(request)).whenComplete((ok, failure) -> {
                    if (failure != null) {
                        log.warn("Could not record the disconnect of {}: {}", connection, failure.getMessage());
                    }
                });
            }
        }
        super.channelInactive(ctx);
    }

    private void publishWill(ClientConnection connection, WillMessage will) {
        var record = PublishRecords.toRecord(will.topic(), will.payload(), will.qos(), will.retain(),
                connection.clientId(), connection.version(), nodeId,
                connection.isMqtt5() ? will.properties() : null, System.currentTimeMillis());
        metrics.publishIn(will.qos());
        producer.send(record, failure -> {
            if (failure != null) {
                log.warn("Will of {} was not published: {}", connection, failure.getMessage());
            }
        });
    }
}
