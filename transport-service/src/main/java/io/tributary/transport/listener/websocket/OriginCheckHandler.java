package io.tributary.transport.listener.websocket;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import io.tributary.transport.connection.ClientAddress;
import io.tributary.transport.limits.LimitRefusals;
import java.nio.charset.StandardCharsets;

/**
 * Between the HTTP aggregator and the WebSocket handshake: the upgrade request's {@code Origin} is judged by the
 * {@link OriginPolicy}. Allowed, the request goes on and this handler leaves the pipeline; refused, the client gets
 * 403 with a short text and the connection is closed, counted in
 * {@code tributary_limit_refusals_total{reason="websocket_origin"}} with one (rate-limited) log line naming the client
 * and the origin. One instance serves every connection of a listener.
 */
@ChannelHandler.Sharable
public final class OriginCheckHandler extends ChannelInboundHandlerAdapter {

    private static final byte[] REFUSED =
            "This web page's origin may not open MQTT over WebSocket here.\n".getBytes(StandardCharsets.US_ASCII);
    /** Enough of a refused origin to recognise it in the log; a longer one is cut. */
    private static final int LOGGED_ORIGIN_LENGTH = 120;

    private final OriginPolicy policy;
    private final LimitRefusals refusals;

    public OriginCheckHandler(OriginPolicy policy, LimitRefusals refusals) {
        this.policy = policy;
        this.refusals = refusals;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof HttpRequest request)) {
            ctx.fireChannelRead(msg);
            return;
        }
        String origin = request.headers().get(HttpHeaderNames.ORIGIN);
        if (policy.allows(origin, request.headers().get(HttpHeaderNames.HOST))) {
            ctx.pipeline().remove(this);
            ctx.fireChannelRead(msg);
            return;
        }
        ReferenceCountUtil.release(msg);
        refusals.refused(
                LimitRefusals.WEBSOCKET_ORIGIN,
                "Refusing WebSocket upgrade from " + ClientAddress.of(ctx.channel()),
                "Origin '" + printable(origin) + "' is not allowed (TRIBUTARY_WEBSOCKET_ALLOWED_ORIGINS)");
        FullHttpResponse forbidden = new DefaultFullHttpResponse(
                HttpVersion.HTTP_1_1, HttpResponseStatus.FORBIDDEN, Unpooled.wrappedBuffer(REFUSED));
        forbidden
                .headers()
                .set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=us-ascii")
                .setInt(HttpHeaderNames.CONTENT_LENGTH, REFUSED.length)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        // Closed from here, not from the channel: the close must not pass the WebSocket handler behind us, which
        // would answer it with a close frame on a connection that never became a WebSocket.
        ctx.writeAndFlush(forbidden).addListener(f -> ctx.close());
    }

    /** The origin as the client sent it, cut, with anything outside printable ASCII as '?', safe for any log format. */
    static String printable(String origin) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < origin.length() && i < LOGGED_ORIGIN_LENGTH; i++) {
            char c = origin.charAt(i);
            out.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return origin.length() > LOGGED_ORIGIN_LENGTH ? out.append("...").toString() : out.toString();
    }
}
