package io.tributary.perf.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.haproxy.HAProxyCommand;
import io.netty.handler.codec.haproxy.HAProxyMessage;
import io.netty.handler.codec.haproxy.HAProxyMessageDecoder;
import io.netty.handler.codec.haproxy.HAProxyProtocolVersion;
import io.netty.handler.codec.haproxy.HAProxyProxiedProtocol;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * --proxy-protocol: the header goes out before anything the client writes when it becomes active, and Netty's own
 * decoder (the one the transport nodes use) reads from it a source address of the benchmark range, one per connection.
 */
class ProxyHeaderWriterTest {

    /** Stands for the MQTT client: writes its CONNECT when the connection becomes active. */
    private static final class Client extends ChannelInboundHandlerAdapter {
        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ctx.writeAndFlush(Unpooled.copiedBuffer("CONNECT", StandardCharsets.US_ASCII));
        }
    }

    private static HAProxyMessage decoded(ByteBuf header) {
        EmbeddedChannel broker = new EmbeddedChannel(new HAProxyMessageDecoder());
        broker.writeInbound(header);
        HAProxyMessage message = broker.readInbound();
        assertThat(message).as("a header Netty's decoder accepts").isNotNull();
        return message;
    }

    @Test
    void the_header_comes_first_and_names_a_benchmark_address_per_connection() {
        EmbeddedChannel channel = new EmbeddedChannel(new ProxyHeaderWriter(70_000), new Client());
        ByteBuf header = channel.readOutbound();
        ByteBuf connect = channel.readOutbound();
        assertThat(connect.toString(StandardCharsets.US_ASCII)).isEqualTo("CONNECT");
        connect.release();
        assertThat(channel.pipeline().get(ProxyHeaderWriter.class))
                .as("gone after the header")
                .isNull();

        HAProxyMessage message = decoded(header);
        try {
            assertThat(message.protocolVersion()).isEqualTo(HAProxyProtocolVersion.V2);
            assertThat(message.command()).isEqualTo(HAProxyCommand.PROXY);
            assertThat(message.proxiedProtocol()).isEqualTo(HAProxyProxiedProtocol.TCP4);
            // Connection 70,000: 198.18.0.0 + 70,001 = 198.19.17.113.
            assertThat(message.sourceAddress()).isEqualTo("198.19.17.113");
            assertThat(message.sourcePort()).isEqualTo(1024 + 70_000 % 64_000);
        } finally {
            message.release();
        }
    }

    @Test
    void two_connections_claim_two_addresses() {
        EmbeddedChannel first = new EmbeddedChannel(new ProxyHeaderWriter(0));
        EmbeddedChannel second = new EmbeddedChannel(new ProxyHeaderWriter(1));
        HAProxyMessage a = decoded(first.readOutbound());
        HAProxyMessage b = decoded(second.readOutbound());
        assertThat(a.sourceAddress()).isEqualTo("198.18.0.1");
        assertThat(b.sourceAddress()).isEqualTo("198.18.0.2");
        a.release();
        b.release();
    }
}
