package io.tributary.transport.connect;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;

/**
 * Marks the server side of the node's own warm-up connections ({@code transport/warmup}). Only the warm-up's
 * in-process listener sets it, on channels no socket can reach, so no outside client can carry it; its CONNECT then
 * asks session-service for a warm-up session ({@code ConnectApi.ConnectRequest#warmUp}).
 */
public final class WarmUpMark {

    private static final AttributeKey<Boolean> WARM_UP = AttributeKey.valueOf("tributary.warm-up");

    private WarmUpMark() {}

    public static void mark(Channel channel) {
        channel.attr(WARM_UP).set(Boolean.TRUE);
    }

    public static boolean carries(Channel channel) {
        return Boolean.TRUE.equals(channel.attr(WARM_UP).get());
    }
}
