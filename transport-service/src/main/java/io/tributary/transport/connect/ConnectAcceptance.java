package io.tributary.transport.connect;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.mqtt.MqttReasonCodes.Disconnect;
import io.tributary.common.acl.TopicPermissions;
import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.DisconnectApi;
import io.tributary.common.session.SubscribeApi;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.HandlerNames;
import io.tributary.transport.connection.SubscriptionOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts an opened session into service on this node: the connection is registered (taking over an older one of the
 * same client), its resumed subscriptions go into the local index, CONNACK goes out and its session queue starts.
 * Runs on the event loop, once session-service has answered.
 */
final class ConnectAcceptance {

    /** ConnectHandler's: the accepted line reads as before the handler was split. */
    private static final Logger log = LoggerFactory.getLogger(ConnectHandler.class);

    private ConnectAcceptance() {}

    /**
     * @return false when the connection is not accepted after all (the client left meanwhile, or a newer connection
     *     of the client was accepted first); it is closed or closing then
     */
    static boolean accept(
            ChannelHandlerContext ctx,
            ConnectContext context,
            ClientConnection connection,
            ConnectApi.ConnectResponse response,
            ConnectAttempt attempt) {
        if (!ctx.channel().isActive()) {
            // The client left while session-service was answering: end the session we just opened.
            context.sessions()
                    .disconnect(new DisconnectApi.DisconnectRequest(
                            connection.clientId(),
                            connection.epoch(),
                            context.properties().nodeId(),
                            connection.sessionExpirySeconds()));
            return false;
        }
        // Compiled once here; every later PUBLISH and SUBSCRIBE is checked against it on the event loop.
        connection.permissions(TopicPermissions.of(response.acl()));
        if (!register(ctx, context, connection)) {
            return false;
        }
        // Metered from here (connection time) until the channel closes (ConnectionLifecycleHandler).
        connection.meter(
                context.registry().meters().connected(connection.namespace().tenant()));
        for (SubscribeApi.Subscription s : response.subscriptions()) {
            context.subscriptions()
                    .add(
                            connection,
                            s.filter(),
                            new SubscriptionOptions(
                                    s.qos(),
                                    s.noLocal(),
                                    s.retainAsPublished(),
                                    s.subscriptionId() == null ? 0 : s.subscriptionId()));
        }
        ctx.writeAndFlush(ConnAcks.accepted(
                        connection,
                        response.sessionPresent(),
                        attempt.assignedId(),
                        attempt.keepAliveChanged(),
                        context.properties().mqtt()))
                .addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
        // After CONNACK: what the session queue holds goes out first, in order, then live messages.
        context.queueReader().start(connection);
        context.metrics().connectAccepted();
        if (response.authenticationExpiresAt() != null) {
            ctx.pipeline()
                    .addAfter(
                            ctx.name(),
                            HandlerNames.AUTHENTICATION_EXPIRY,
                            new AuthenticationExpiryHandler(
                                    response.authenticationExpiresAt(), context.disconnector()));
        }
        // MQTT section 3.1.2.10: the keep-alive period runs from the CONNACK (KeepAliveWatch closes silent clients).
        connection.bytesRead(System.nanoTime());
        log.debug("Accepted {} epoch {} session present {}", connection, connection.epoch(), response.sessionPresent());
        return true;
    }

    /**
     * Registers the connection as its client's on this node; an older one is taken over (DISCONNECT 0x8E).
     *
     * @return false when a newer connection of the client was registered meanwhile: this one is closed instead
     */
    private static boolean register(ChannelHandlerContext ctx, ConnectContext context, ClientConnection connection) {
        ctx.channel().attr(ClientConnection.KEY).set(connection);
        ClientConnection displaced = context.registry().register(connection);
        if (displaced == connection) {
            ctx.channel().attr(ClientConnection.KEY).set(null);
            context.disconnector()
                    .close(
                            ctx.channel(),
                            null,
                            "a newer connection of client '" + connection.clientId() + "' was accepted meanwhile");
            return false;
        }
        if (displaced != null) {
            displaced.channel().eventLoop().execute(() -> {
                displaced.markTakenOver();
                context.disconnector()
                        .disconnect(
                                displaced.channel(),
                                Disconnect.SESSION_TAKEN_OVER,
                                null,
                                "session taken over by a newer connection (epoch " + connection.epoch() + ")");
            });
        }
        return true;
    }
}
