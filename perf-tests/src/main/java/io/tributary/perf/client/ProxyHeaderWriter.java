package io.tributary.perf.client;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * First in a load client's pipeline when the target expects the PROXY protocol (a transport node with
 * TRIBUTARY_PROXY_PROTOCOL=true reached without its load balancer, as the in-cluster perf Jobs do): writes a PROXY
 * protocol v2 header in clear before anything else (TLS included), then leaves. Each connection claims its own
 * source address from 198.18.0.0/15, the range set aside for benchmarks (RFC 2544), so a run of simulated devices
 * meets the per-address limits as separate devices would, not as one address.
 */
final class ProxyHeaderWriter extends ChannelInboundHandlerAdapter {

    private static final byte[] SIGNATURE = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};
    /** 198.18.0.0/15: 2^17 addresses. */
    private static final int BENCHMARK_ADDRESSES = 1 << 17;

    private final long connection;

    /** @param connection the connection's number in this process: picks its source address and port */
    ProxyHeaderWriter(long connection) {
        this.connection = connection;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        ctx.writeAndFlush(header(ctx, connection, ctx.channel().remoteAddress()));
        ctx.pipeline().remove(this);
        ctx.fireChannelActive();
    }

    /** Version 2, command PROXY, TCP over IPv4: the benchmark source, the target as destination (0.0.0.0 if IPv6). */
    static ByteBuf header(ChannelHandlerContext ctx, long connection, SocketAddress target) {
        // 198.18.0.1 to 198.19.255.254: neither end of the range.
        int n = (int) (connection % (BENCHMARK_ADDRESSES - 2)) + 1;
        ByteBuf out = ctx.alloc().buffer(28);
        out.writeBytes(SIGNATURE);
        out.writeByte(0x21); // version 2, PROXY
        out.writeByte(0x11); // AF_INET, STREAM
        out.writeShort(12);
        out.writeByte(198);
        out.writeByte(18 + (n >> 16));
        out.writeByte((n >> 8) & 0xFF);
        out.writeByte(n & 0xFF);
        InetSocketAddress destination = target instanceof InetSocketAddress a ? a : null;
        if (destination != null && destination.getAddress() instanceof Inet4Address v4) {
            out.writeBytes(v4.getAddress());
        } else {
            out.writeInt(0);
        }
        out.writeShort(1024 + (int) (connection % 64_000));
        out.writeShort(destination == null ? 0 : destination.getPort());
        return out;
    }
}
