package io.tributary.transport.listener.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.embedded.EmbeddedChannel;
import io.tributary.transport.connection.ClientAddress;
import io.tributary.transport.limits.LimitRefusals;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The PROXY protocol handlers on an EmbeddedChannel: the listener's pipeline (here a recorder in place of TLS and
 * MQTT) exists only after a valid header, sees the client's address from its first moment, becomes active once and
 * gets the bytes behind the header; everything else closes the connection.
 */
class ProxyProtocolHandlerTest {

    private static final byte[] MQTT_CONNECT = {
        0x10, 0x10, 0x00, 0x04, 'M', 'Q', 'T', 'T', 0x04, 0x02, 0x00, 0x3C, 0x00, 0x04, 'c', 'l', 'i', 'd'
    };

    /** Stands for the listener's handlers: what they saw when added, whether they became active, what they read. */
    private static final class Listener extends ChannelInboundHandlerAdapter {
        SocketAddress addressWhenAdded;
        int activations;
        final ByteBuf read = Unpooled.buffer();
        int builds;

        void build(ChannelPipeline p) {
            builds++;
            p.addLast("listener", this);
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            addressWhenAdded = ClientAddress.of(ctx.channel());
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            activations++;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            read.writeBytes(buf);
            buf.release();
        }
    }

    /** An embedded channel whose peer is an IP address, as a socket's is. */
    private static final class PeerChannel extends EmbeddedChannel {
        private final InetSocketAddress peer;

        PeerChannel(InetSocketAddress peer) {
            super(false, false);
            this.peer = peer;
        }

        @Override
        protected SocketAddress remoteAddress0() {
            return peer;
        }
    }

    private static final InetSocketAddress BALANCER = new InetSocketAddress("10.0.3.4", 40_000);

    private final Listener listener = new Listener();
    private final LimitRefusals refusals = new LimitRefusals(new SimpleMeterRegistry(), System::nanoTime);

    private long refused() {
        return refusals.count(LimitRefusals.PROXY_PROTOCOL);
    }

    private EmbeddedChannel channel(List<String> trusted) {
        ProxyProtocolProperties properties = new ProxyProtocolProperties(true, trusted, Duration.ofSeconds(5));
        ProxyProtocolInitializer initializer = new ProxyProtocolInitializer(properties, listener::build, refusals);
        PeerChannel channel = new PeerChannel(BALANCER);
        // As on a listener: the initializer runs when the channel registers, before it is active.
        channel.pipeline().addLast(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                initializer.init(ch);
            }
        });
        try {
            channel.register();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return channel;
    }

    private static ByteBuf bytes(byte[] b) {
        return Unpooled.wrappedBuffer(b);
    }

    private byte[] readByListener() {
        byte[] b = new byte[listener.read.readableBytes()];
        listener.read.getBytes(listener.read.readerIndex(), b);
        return b;
    }

    private static List<String> names(EmbeddedChannel channel) {
        List<String> names = new ArrayList<>(channel.pipeline().names());
        names.removeIf(n -> n.startsWith("DefaultChannelPipeline$TailContext"));
        return names;
    }

    @Test
    void a_v2_header_gives_the_client_address_before_the_listener_pipeline_exists_and_its_bytes_follow() {
        EmbeddedChannel channel = channel(List.of());
        assertThat(names(channel))
                .as("nothing but the PROXY handlers until the header is read")
                .containsExactly(
                        ProxyProtocolInitializer.SIGNATURE,
                        ProxyProtocolInitializer.DECODER,
                        ProxyProtocolInitializer.HEADER);
        assertThat(listener.builds).isZero();

        channel.writeInbound(
                bytes(ProxyHeaders.concat(ProxyHeaders.v2("203.0.113.7", 4711, "10.0.0.1", 1883), MQTT_CONNECT)));

        InetSocketAddress client = new InetSocketAddress("203.0.113.7", 4711);
        assertThat(ClientAddress.of(channel)).isEqualTo(client);
        assertThat(ClientAddress.ip(channel)).isEqualTo(client.getAddress());
        assertThat(ClientAddress.peer(channel))
                .as("the socket's peer stays the balancer")
                .isEqualTo(BALANCER);
        assertThat(listener.addressWhenAdded)
                .as("known when the listener's handlers are added")
                .isEqualTo(client);
        assertThat(listener.activations).isEqualTo(1);
        assertThat(readByListener())
                .as("the bytes behind the header, unchanged")
                .isEqualTo(MQTT_CONNECT);
        assertThat(names(channel)).as("the PROXY handlers left").containsExactly("listener");
        assertThat(channel.isActive()).isTrue();
        assertThat(refused()).isZero();
    }

    @Test
    void a_header_split_over_reads_still_decodes() {
        EmbeddedChannel channel = channel(List.of());
        byte[] header = ProxyHeaders.v2("2001:db8::17", 50_000, "2001:db8::1", 8883);
        for (byte b : header) {
            channel.writeInbound(bytes(new byte[] {b}));
        }
        channel.writeInbound(bytes(MQTT_CONNECT));
        assertThat(ClientAddress.of(channel)).isEqualTo(new InetSocketAddress("2001:db8::17", 50_000));
        assertThat(readByListener()).isEqualTo(MQTT_CONNECT);
        assertThat(listener.builds).isEqualTo(1);
    }

    @Test
    void a_v1_header_gives_the_client_address() {
        EmbeddedChannel channel = channel(List.of());
        channel.writeInbound(
                bytes(ProxyHeaders.concat(ProxyHeaders.v1("198.51.100.20", 61_000, "10.0.0.1", 1883), MQTT_CONNECT)));
        assertThat(ClientAddress.of(channel)).isEqualTo(new InetSocketAddress("198.51.100.20", 61_000));
        assertThat(readByListener()).isEqualTo(MQTT_CONNECT);
        assertThat(listener.activations).isEqualTo(1);
    }

    @Test
    void a_local_header_from_a_health_check_keeps_the_peer_address() {
        EmbeddedChannel channel = channel(List.of());
        channel.writeInbound(bytes(ProxyHeaders.concat(ProxyHeaders.v2Local(), MQTT_CONNECT)));
        assertThat(ClientAddress.of(channel)).isEqualTo(BALANCER);
        assertThat(listener.addressWhenAdded).isEqualTo(BALANCER);
        assertThat(readByListener()).isEqualTo(MQTT_CONNECT);
        assertThat(channel.isActive()).isTrue();
    }

    @Test
    void a_connection_that_starts_with_mqtt_instead_of_a_header_is_closed_at_once() {
        EmbeddedChannel channel = channel(List.of());
        channel.writeInbound(bytes(MQTT_CONNECT));
        assertThat(channel.isActive())
                .as("closed without waiting for the timeout")
                .isFalse();
        assertThat(listener.builds).isZero();
        assertThat(refused()).as("counted once").isEqualTo(1);
        assertThat(ClientAddress.of(channel)).isEqualTo(BALANCER);
    }

    @Test
    void a_first_byte_that_starts_no_header_is_enough_to_close() {
        EmbeddedChannel channel = channel(List.of());
        channel.writeInbound(bytes(new byte[] {0x16})); // a TLS ClientHello's first byte
        assertThat(channel.isActive()).isFalse();
        assertThat(listener.builds).isZero();
    }

    @Test
    void a_broken_v1_line_and_a_bad_v2_command_are_refused() {
        EmbeddedChannel v1 = channel(List.of());
        v1.writeInbound(bytes("PROXY TCP4 not-an-address 10.0.0.1 1 2\r\n".getBytes(StandardCharsets.US_ASCII)));
        assertThat(v1.isActive()).isFalse();

        EmbeddedChannel v2 = channel(List.of());
        byte[] header = ProxyHeaders.v2("203.0.113.7", 4711, "10.0.0.1", 1883);
        header[12] = 0x2F; // version 2, command 0xF: no such command
        v2.writeInbound(bytes(header));
        assertThat(v2.isActive()).isFalse();
        assertThat(listener.builds).isZero();
        assertThat(refused()).isEqualTo(2);
    }

    @Test
    void a_header_that_does_not_arrive_in_time_closes_the_connection() {
        EmbeddedChannel channel = channel(List.of());
        // A partial signature: everything so far could still be a header.
        channel.writeInbound(bytes(new byte[] {0x0D, 0x0A, 0x0D}));
        channel.advanceTimeBy(4, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        assertThat(channel.isActive()).as("still within the timeout").isTrue();
        channel.advanceTimeBy(2, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        assertThat(channel.isActive()).as("closed after 5 s without a header").isFalse();
        assertThat(listener.builds).isZero();
        assertThat(refused()).isEqualTo(1);
    }

    @Test
    void a_silent_connection_is_closed_after_the_timeout_too() {
        EmbeddedChannel channel = channel(List.of());
        channel.advanceTimeBy(6, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        assertThat(channel.isActive()).isFalse();
    }

    @Test
    void the_timeout_does_not_fire_once_the_header_is_read() {
        EmbeddedChannel channel = channel(List.of());
        channel.writeInbound(bytes(ProxyHeaders.v2("203.0.113.7", 4711, "10.0.0.1", 1883)));
        channel.advanceTimeBy(10, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        assertThat(channel.isActive()).isTrue();
    }

    @Test
    void a_peer_outside_the_trusted_networks_is_refused_before_it_sends_anything() {
        EmbeddedChannel untrusted = channel(List.of("192.168.0.0/16", "fd00::/8"));
        assertThat(untrusted.isActive()).isFalse();
        assertThat(listener.builds).isZero();
        assertThat(refused()).isEqualTo(1);

        EmbeddedChannel trusted = channel(List.of("192.168.0.0/16", "10.0.0.0/22"));
        trusted.writeInbound(bytes(ProxyHeaders.v2("203.0.113.7", 4711, "10.0.0.1", 1883)));
        assertThat(ClientAddress.of(trusted)).isEqualTo(new InetSocketAddress("203.0.113.7", 4711));
    }
}
