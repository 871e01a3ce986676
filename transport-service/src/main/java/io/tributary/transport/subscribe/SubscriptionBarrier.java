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
 * <p>SUBSCRIBEs pipelined one behind the other (or UNSUBSCRIBEs) pass together, up to {@link #MAX_PIPELINED}:
 * {@link SubscribeHandler} sends them to session-service in one call, which applies them in order, so a client that
 * subscribes to a hundred filters without waiting waits one round trip, not a hundred. A packet of any other kind,
 * an UNSUBSCRIBE behind SUBSCRIBEs included, waits until all of them are settled.
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

    /** SUBSCRIBEs (or UNSUBSCRIBEs) of one connection under way at once, at most: one session-service batch. */
    static final int MAX_PIPELINED = 100;

    private static final byte NONE = 0;
    private static final byte SUBSCRIBE = 1;
    private static final byte UNSUBSCRIBE = 2;

    // Sized for an idle connection (nothing held): the default 16 slots cost 128 bytes per connection.
    private final ArrayDeque<Object> held = new ArrayDeque<>(1);
    /** SUBSCRIBEs or UNSUBSCRIBEs passed and not settled yet, all of {@link #pendingKind}. */
    private int pending;

    private byte pendingKind = NONE;
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
        if (!held.isEmpty() || !mayPass(msg)) {
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
        if (pending > 0 && --pending == 0) {
            pendingKind = NONE;
        }
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

    /** Held packets in order while they may pass; re-entrant calls (an immediate SUBACK) return. */
    private void drain(ChannelHandlerContext ctx) {
        if (draining) {
            return;
        }
        draining = true;
        try {
            while (!held.isEmpty() && ctx.channel().isActive() && mayPass(held.peekFirst())) {
                pass(ctx, held.pollFirst());
            }
        } finally {
            draining = false;
        }
        if (pending == 0) {
            ReadGate.resume(ctx.channel(), ReadGate.Reason.SUBSCRIBING);
        }
    }

    /** Nothing pending, or one more of the kind pending (SUBSCRIBE behind SUBSCRIBEs) within the bound. */
    private boolean mayPass(Object msg) {
        return pending == 0 || (kind(msg) == pendingKind && pending < MAX_PIPELINED);
    }

    private void pass(ChannelHandlerContext ctx, Object msg) {
        byte kind = kind(msg);
        if (kind != NONE) {
            pending++;
            pendingKind = kind;
            ReadGate.pause(ctx.channel(), ReadGate.Reason.SUBSCRIBING);
        }
        ctx.fireChannelRead(msg);
    }

    private static byte kind(Object msg) {
        if (msg instanceof MqttSubscribeMessage) {
            return SUBSCRIBE;
        }
        return msg instanceof MqttUnsubscribeMessage ? UNSUBSCRIBE : NONE;
    }
}
