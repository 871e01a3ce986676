package io.tributary.transport.connect;

import io.netty.channel.ChannelHandlerContext;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;

/**
 * Packets a client pipelined behind its CONNECT, held while session-service answers and passed on after CONNACK,
 * in order: MQTT allows clients to send them before the CONNACK arrives. Bounded, so a client cannot fill the
 * node's memory before it is even accepted. Used on the event loop only.
 */
final class HeldPackets {

    static final int MAX_HELD_PACKETS = 1000;

    private final ArrayDeque<Object> held = new ArrayDeque<>();

    /** @return false when the limit is reached: the packet was released, not held */
    boolean hold(Object msg) {
        if (held.size() >= MAX_HELD_PACKETS) {
            ReferenceCountUtil.release(msg);
            return false;
        }
        held.add(msg);
        return true;
    }

    /** Passes the held packets on to the next handler, in arrival order. */
    void replay(ChannelHandlerContext ctx) {
        while (!held.isEmpty()) {
            ctx.fireChannelRead(held.poll());
        }
    }

    /** The connection closed before CONNACK: what was held is dropped. */
    void release() {
        while (!held.isEmpty()) {
            ReferenceCountUtil.release(held.poll());
        }
    }
}
