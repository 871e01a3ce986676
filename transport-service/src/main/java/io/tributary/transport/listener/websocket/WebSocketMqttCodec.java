package io.tributary.transport.listener.websocket;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageCodec;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import java.util.List;

/**
 * Between the WebSocket protocol handler and the MQTT pipeline: the payload of binary frames (and their
 * continuations) goes on as plain bytes, and bytes written by the MQTT encoder go out as binary frames. The MQTT
 * decoder downstream reassembles the byte stream, so one packet may span frames and one frame may hold several
 * packets (MQTT 5 section 6). A text frame closes the connection, as MQTT requires [MQTT-6.0.0-1]; an HTTP request
 * the WebSocket handler did not take (another path) is answered 404.
 */
@ChannelHandler.Sharable
public final class WebSocketMqttCodec extends MessageToMessageCodec<Object, ByteBuf> {

    public static final WebSocketMqttCodec INSTANCE = new WebSocketMqttCodec();

    private WebSocketMqttCodec() {}

    @Override
    protected void encode(ChannelHandlerContext ctx, ByteBuf bytes, List<Object> out) {
        // The codec releases what it was given once encode returns; the frame takes its own reference.
        out.add(new BinaryWebSocketFrame(bytes.retain()));
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, Object msg, List<Object> out) {
        if (msg instanceof BinaryWebSocketFrame || msg instanceof ContinuationWebSocketFrame) {
            ByteBuf content = ((io.netty.handler.codec.http.websocketx.WebSocketFrame) msg).content();
            if (content.isReadable()) {
                out.add(content.retain());
            }
        } else if (msg instanceof io.netty.handler.codec.http.websocketx.WebSocketFrame) {
            // Text frames (ping, pong and close are answered by the protocol handler before us).
            ctx.writeAndFlush(new CloseWebSocketFrame(
                            WebSocketCloseStatus.INVALID_MESSAGE_TYPE, "MQTT needs binary frames"))
                    .addListener(ChannelFutureListener.CLOSE);
        } else if (msg instanceof HttpRequest) {
            // Not an upgrade on our path: this connection never becomes a WebSocket, so the protocol handler must
            // not answer the close below with a WebSocket close frame.
            if (ctx.pipeline().get(WebSocketServerProtocolHandler.class) != null) {
                ctx.pipeline().remove(WebSocketServerProtocolHandler.class);
            }
            DefaultFullHttpResponse notFound =
                    new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NOT_FOUND);
            notFound.headers().set(HttpHeaderNames.CONTENT_LENGTH, 0);
            ctx.writeAndFlush(notFound).addListener(ChannelFutureListener.CLOSE);
        }
        // Anything else (nothing should reach here) is dropped, never fed to the MQTT decoder; the codec releases it.
    }

    @Override
    public boolean acceptInboundMessage(Object msg) {
        return true;
    }
}
