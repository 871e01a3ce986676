package io.tributary.transport.logging;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.mqtt.MqttConnectMessage;
import io.tributary.transport.connection.ClientConnection;
import org.slf4j.MDC;

/**
 * Puts the client id into the logging MDC ({@value #CLIENT_ID}) while the handlers after this one process an
 * inbound event of the channel, so every line they log about the client carries it as a structured field
 * (LOG_FORMAT=json/ecs/logstash/gelf) besides the text. The id is the connection's once CONNECT was accepted, the
 * CONNECT packet's while it is processed. Handlers run synchronously on the channel's event loop inside
 * {@code fireChannelRead}, so the entry is removed when the event returns and never leaks to another channel; work
 * that continues on another thread (session-service answers, Kafka callbacks) names the client in its message.
 */
@ChannelHandler.Sharable
public final class ClientLogContext extends ChannelInboundHandlerAdapter {

    public static final String CLIENT_ID = "client_id";
    public static final ClientLogContext INSTANCE = new ClientLogContext();

    private ClientLogContext() {}

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        String clientId = clientId(ctx, msg);
        if (clientId == null) {
            ctx.fireChannelRead(msg);
            return;
        }
        try (MDC.MDCCloseable ignored = MDC.putCloseable(CLIENT_ID, clientId)) {
            ctx.fireChannelRead(msg);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        String clientId = clientId(ctx, null);
        if (clientId == null) {
            ctx.fireChannelInactive();
            return;
        }
        try (MDC.MDCCloseable ignored = MDC.putCloseable(CLIENT_ID, clientId)) {
            ctx.fireChannelInactive();
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        String clientId = clientId(ctx, null);
        if (clientId == null) {
            ctx.fireUserEventTriggered(event);
            return;
        }
        try (MDC.MDCCloseable ignored = MDC.putCloseable(CLIENT_ID, clientId)) {
            ctx.fireUserEventTriggered(event);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
        String clientId = clientId(ctx, null);
        if (clientId == null) {
            ctx.fireExceptionCaught(cause);
            return;
        }
        try (MDC.MDCCloseable ignored = MDC.putCloseable(CLIENT_ID, clientId)) {
            ctx.fireExceptionCaught(cause);
        }
    }

    private static String clientId(ChannelHandlerContext ctx, Object msg) {
        ClientConnection connection = ClientConnection.of(ctx.channel());
        if (connection != null) {
            return connection.clientId();
        }
        if (msg instanceof MqttConnectMessage connect && connect.payload() != null) {
            String id = connect.payload().clientIdentifier();
            return id == null || id.isEmpty() ? null : id;
        }
        return null;
    }
}
