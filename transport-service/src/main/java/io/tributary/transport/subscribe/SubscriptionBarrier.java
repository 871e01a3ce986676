package io.tributary.transport.subscribe;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.mqtt.MqttSubscribeMessage;
import io.netty.handler.codec.mqtt.MqttUnsubscribeMessage;
import io.netty.util.ReferenceCountUtil;
import io.tributary.transport.backpressure.ReadGate;
import java.util.ArrayDeque;

/**
 * Packets of one connection take effect in the order the client sent them (MQTT 3.1.1 and 5.0 section 4.6), even
 * when it pipelines them without waiting for acknowledgements. A SUBSCRIBE or UNSUBSCRIBE takes effect only when
 * session-service has recorded it and Kafka has acknowledged its subscription feed record; a PUBLISH sent behind it
 * must be routed with that change in place (matched by the new subscription, not by the removed one). So once a
 * SUBSCRIBE or UNSUBSCRIBE passes, every later packet of the connection waits here, in arrival order, and reading
 * from the client pauses ({@link ReadGate.Reason#SUBSCRIBING}), until {@link SubscribeHandler} reports it
 * {@linkplain #settled settled}; then the held packets go on, up to the next SUBSCRIBE or UNSUBSCRIBE.
 *
 * <p>A connection with no SUBSCRIBE or UNSUBSCRIBE pending passes everything straight through: pipelined publishes
 * keep their throughput. Per channel, event-loop only; never blocks: waiting means holding packets and not reading.
 * Pipelined packets already decoded from the last read are held (bounded by one read buffer), nothing more.
 */
public final class SubscriptionBarrier extends ChannelInboundHandlerAdapter {

    /** Fired by {@link SubscribeHandler} through the pipeline when a SUBSCRIBE or UNSUBSCRIBE has taken effect. */
    public static final Object SETTLED = new Object() {
        @Override
        public String toString() {
            return "SubscriptionSettled";
        }
    };

    // Sized for an idle connection (nothing held): the default 16 slots cost 128 bytes per connection.
    private final ArrayDeque<Object> held = new ArrayDeque<>(1);
    private boolean pending;
    private boolean draining;

    /**
     * The SUBSCRIBE or UNSUBSCRIBE last passed on {@code channel} has taken effect and been answered (SUBACK or
     * UNSUBACK written). Not called when the connection is being closed instead: held packets die with it.
     */
    public static void settled(Channel channel) {
        channel.pipeline().fireUserEventTriggered(SETTLED);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (pending || !held.isEmpty()) {
            held.addLast(msg);
            return;
        }
        pass(ctx, msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt != SETTLED) {
            super.userEventTriggered(ctx, evt);
            return;
        }
        pending = false;
        drain(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        while (!held.isEmpty()) {
            ReferenceCountUtil.release(held.pollFirst());
        }
        super.channelInactive(ctx);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        while (!held.isEmpty()) {
            ReferenceCountUtil.release(held.pollFirst());
        }
    }

    /** Held packets in order until the next SUBSCRIBE/UNSUBSCRIBE; re-entrant calls (an immediate SUBACK) return. */
    private void drain(ChannelHandlerContext ctx) {
        if (draining) {
            return;
        }
        draining = true;
        try {
            while (!pending && !held.isEmpty() && ctx.channel().isActive()) {
                pass(ctx, held.pollFirst());
            }
        } finally {
            draining = false;
        }
        if (!pending) {
            ReadGate.resume(ctx.channel(), ReadGate.Reason.SUBSCRIBING);
        }
    }

    private void pass(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof MqttSubscribeMessage || msg instanceof MqttUnsubscribeMessage) {
            pending = true;
            ReadGate.pause(ctx.channel(), ReadGate.Reason.SUBSCRIBING);
        }
        ctx.fireChannelRead(msg);
    }
}
