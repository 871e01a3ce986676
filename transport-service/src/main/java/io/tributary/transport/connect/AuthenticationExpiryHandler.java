package io.tributary.transport.connect;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.mqtt.MqttReasonCodes.Disconnect;
import io.tributary.transport.connection.Disconnector;
import java.time.Instant;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Ends a connection whose authentication runs out (a JWT's expiry, plus the clock skew session-service allowed):
 * MQTT 5 clients get DISCONNECT 0xA0 (Maximum connect time: "the maximum connection time authorized for this
 * connection has been exceeded" — they may reconnect with a fresh token), MQTT 3.x clients are closed. Added after
 * CONNACK only to connections whose CONNECT response carried an expiry; the timer runs on the channel's event loop
 * and is cancelled when the connection ends first, so a long-lived token does not keep a closed channel referenced.
 */
public final class AuthenticationExpiryHandler extends ChannelInboundHandlerAdapter {

    private final long expiresAtMillis;
    private final Disconnector disconnector;
    private ScheduledFuture<?> timer;

    public AuthenticationExpiryHandler(long expiresAtMillis, Disconnector disconnector) {
        this.expiresAtMillis = expiresAtMillis;
        this.disconnector = disconnector;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        // Wall-clock time on both sides: session-service and the nodes are expected to run NTP, as the token
        // issuer is; the skew allowance covers small differences.
        long delayMs = Math.max(0, expiresAtMillis - System.currentTimeMillis());
        timer = ctx.executor()
                .schedule(
                        () -> disconnector.disconnect(
                                ctx.channel(),
                                Disconnect.MAXIMUM_CONNECT_TIME,
                                null,
                                "its token expired (valid until " + Instant.ofEpochMilli(expiresAtMillis)
                                        + ", exp plus clock skew)"),
                        delayMs,
                        TimeUnit.MILLISECONDS);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancel();
        super.channelInactive(ctx);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cancel();
    }

    private void cancel() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}
