package io.tributary.transport.listener.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.tributary.devstack.tls.CertificateAuthority;
import io.tributary.transport.config.TransportProperties.Tls.ClientAuthMode;
import io.tributary.transport.config.TransportProperties.Tls.Provider;
import io.tributary.transport.connection.ClientAddress;
import io.tributary.transport.limits.LimitRefusals;
import io.tributary.transport.listener.proxy.ProxyHeaders;
import io.tributary.transport.listener.proxy.ProxyProtocolInitializer;
import io.tributary.transport.listener.proxy.ProxyProtocolProperties;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The TLS listener behind the PROXY protocol on a real socket: the header comes in clear before the ClientHello (as
 * HAProxy and the NLB send it), the TLS handler is built behind it, and the MQTT chain (here a handler that answers
 * with the client address it sees) gets the header's source; a ClientHello without a header is refused.
 */
class TlsBehindProxyProtocolTest {

    @TempDir
    Path dir;

    private EventLoopGroup group;
    private Channel server;
    private ReloadingSslContext contexts;
    private CertificateAuthority ca;
    private int port;

    @BeforeEach
    void start() throws Exception {
        ca = CertificateAuthority.create("Test CA");
        CertificateAuthority.Files serverFiles =
                ca.issueServer("server-1", List.of("localhost", "127.0.0.1")).written(dir, "server");
        contexts = new ReloadingSslContext(
                new TlsContextLoader(TlsTestSupport.settings(serverFiles, null, ClientAuthMode.NONE, Provider.JDK)),
                Duration.ofHours(1));
        TlsChannelInitializer tls = new TlsChannelInitializer(
                contexts,
                Duration.ofSeconds(5),
                p -> p.addLast(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ((ByteBuf) msg).release();
                        ctx.writeAndFlush(
                                Unpooled.copiedBuffer(ClientAddress.of(ctx.channel()) + "\n", StandardCharsets.UTF_8));
                    }
                }));
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        server = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ProxyProtocolInitializer(
                        new ProxyProtocolProperties(true, List.of("127.0.0.0/8"), Duration.ofSeconds(5)),
                        tls::addTlsAndMqtt,
                        new LimitRefusals(new SimpleMeterRegistry(), System::nanoTime)))
                .bind(new InetSocketAddress("127.0.0.1", 0))
                .syncUninterruptibly()
                .channel();
        port = ((InetSocketAddress) server.localAddress()).getPort();
    }

    @AfterEach
    void stop() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        contexts.close();
    }

    /** TLS over a socket that has sent {@code header} in clear first; returns the server's answer line. */
    private String exchange(SSLContext client, byte[] header) throws IOException {
        try (Socket raw = new Socket("127.0.0.1", port)) {
            raw.setSoTimeout(5_000);
            if (header != null) {
                raw.getOutputStream().write(header);
                raw.getOutputStream().flush();
            }
            try (SSLSocket tls = (SSLSocket) client.getSocketFactory().createSocket(raw, "127.0.0.1", port, false)) {
                tls.startHandshake();
                tls.getOutputStream().write('x');
                tls.getOutputStream().flush();
                StringBuilder line = new StringBuilder();
                for (int c; (c = tls.getInputStream().read()) != '\n'; ) {
                    if (c < 0) {
                        throw new IOException("closed by the server");
                    }
                    line.append((char) c);
                }
                return line.toString();
            }
        }
    }

    @Test
    void the_header_in_clear_before_the_handshake_gives_the_client_address_behind_tls() throws Exception {
        SSLContext client = ca.clientContext(null);
        assertThat(exchange(client, ProxyHeaders.v2("203.0.113.7", 4711, "10.0.0.1", 8883)))
                .isEqualTo("/203.0.113.7:4711");
        assertThat(exchange(client, ProxyHeaders.v1("2001:db8::17", 50_000, "2001:db8::1", 8883)))
                .isEqualTo("/[2001:db8:0:0:0:0:0:17]:50000");
    }

    @Test
    void a_client_hello_without_a_header_is_refused() {
        assertThatThrownBy(() -> exchange(ca.clientContext(null), null)).isInstanceOf(IOException.class);
    }
}
