package io.tributary.transport.listener.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import io.netty.handler.ssl.OpenSsl;
import io.tributary.devstack.tls.CertificateAuthority;
import io.tributary.transport.config.TransportProperties.Tls.ClientAuthMode;
import io.tributary.transport.config.TransportProperties.Tls.Provider;
import io.tributary.transport.connection.ClientCertificate;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The TLS layer of the listeners on a real socket, with both providers: protocol versions, mutual TLS, the client
 * certificate identity, certificate reload and session resumption. Behind the TLS handler sits a handler that
 * answers every read with the CN it sees, in place of the MQTT pipeline.
 */
class TlsListenerTest {

    @TempDir
    Path dir;

    private EventLoopGroup group;
    private Channel server;
    private ReloadingSslContext contexts;
    private CertificateAuthority ca;
    private Path caFile;
    private CertificateAuthority.Files serverFiles;
    private final BlockingQueue<Object> seen = new ArrayBlockingQueue<>(16);

    @BeforeEach
    void pki() throws Exception {
        ca = CertificateAuthority.create("Test CA");
        caFile = ca.writeCertificate(dir.resolve("ca.crt"));
        serverFiles =
                ca.issueServer("server-1", List.of("localhost", "127.0.0.1")).written(dir, "server");
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close().syncUninterruptibly();
        }
        if (group != null) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
        if (contexts != null) {
            contexts.close();
        }
    }

    private int start(ClientAuthMode clientAuth, Provider provider) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                provider != Provider.OPENSSL || OpenSsl.isAvailable(), "OpenSSL (netty-tcnative) not available here");
        contexts = new ReloadingSslContext(
                new TlsContextLoader(TlsTestSupport.settings(
                        serverFiles, clientAuth == ClientAuthMode.NONE ? null : caFile, clientAuth, provider)),
                Duration.ofHours(1));
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        server = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childHandler(new TlsChannelInitializer(
                        contexts,
                        Duration.ofSeconds(5),
                        p -> p.addLast(new ChannelInboundHandlerAdapter() {
                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                ((ByteBuf) msg).release();
                                ClientCertificate certificate = ClientCertificate.of(ctx.channel());
                                seen.add(certificate == null ? "none" : certificate);
                                ctx.writeAndFlush(Unpooled.copiedBuffer(
                                        (certificate == null ? "none" : certificate.commonName()) + "\n",
                                        StandardCharsets.UTF_8));
                            }
                        })))
                .bind(new InetSocketAddress("127.0.0.1", 0))
                .syncUninterruptibly()
                .channel();
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** Connects, sends one byte and returns the server's answer line; the socket's session in {@code session}. */
    private static String exchange(SSLContext client, int port, String protocol, SSLSocket[] keep) throws IOException {
        SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket("127.0.0.1", port);
        socket.setSoTimeout(5_000);
        if (protocol != null) {
            socket.setEnabledProtocols(new String[] {protocol});
        }
        try {
            socket.startHandshake();
            socket.getOutputStream().write('x');
            socket.getOutputStream().flush();
            StringBuilder line = new StringBuilder();
            for (int c; (c = socket.getInputStream().read()) != '\n'; ) {
                if (c < 0) {
                    throw new SSLException("closed by the server");
                }
                line.append((char) c);
            }
            if (keep != null) {
                keep[0] = socket;
            }
            return line.toString();
        } finally {
            if (keep == null) {
                socket.close();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Provider.class,
            names = {"JDK", "OPENSSL"})
    void serves_tls_1_2_and_1_3_and_refuses_1_1(Provider provider) throws Exception {
        int port = start(ClientAuthMode.NONE, provider);
        SSLContext client = ca.clientContext(null);
        SSLSocket[] keep = new SSLSocket[1];
        assertThat(exchange(client, port, "TLSv1.3", keep)).isEqualTo("none");
        assertThat(keep[0].getSession().getProtocol()).isEqualTo("TLSv1.3");
        keep[0].close();
        assertThat(exchange(client, port, "TLSv1.2", keep)).isEqualTo("none");
        assertThat(keep[0].getSession().getProtocol()).isEqualTo("TLSv1.2");
        keep[0].close();
        // A ServerHello would start with 0x16 (handshake); the server must answer with an alert or close.
        assertThat(io.tributary.devstack.tls.TlsProbe.answerToTls11Hello(port)).isIn(0x15, -1);
    }

    @ParameterizedTest
    @EnumSource(
            value = Provider.class,
            names = {"JDK", "OPENSSL"})
    void required_client_certificates_must_come_from_the_configured_ca(Provider provider) throws Exception {
        int port = start(ClientAuthMode.REQUIRED, provider);
        CertificateAuthority.Issued good = ca.issueClient("device-42", List.of("device-42.example"));
        CertificateAuthority rogue = CertificateAuthority.create("Rogue CA");
        CertificateAuthority.Issued bad = rogue.issueClient("device-42", List.of());

        assertThat(exchange(ca.clientContext(good), port, null, null)).isEqualTo("device-42");
        ClientCertificate identity = (ClientCertificate) seen.poll(5, TimeUnit.SECONDS);
        assertThat(identity.commonName()).isEqualTo("device-42");
        assertThat(identity.subjectAltNames()).containsExactly("DNS:device-42.example");
        assertThat(identity.subject()).contains("CN=device-42").contains("O=Tributary Test");

        for (SSLContext refused : List.of(ca.clientContext(null), ca.clientContext(bad))) {
            // TLS 1.3 clients learn of the refusal at their first read (the alert follows their Finished).
            assertThatThrownBy(() -> exchange(refused, port, null, null)).isInstanceOf(IOException.class);
        }
        assertThat(seen).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(
            value = Provider.class,
            names = {"JDK", "OPENSSL"})
    void optional_client_certificates_admit_clients_without_one(Provider provider) throws Exception {
        int port = start(ClientAuthMode.OPTIONAL, provider);
        assertThat(exchange(ca.clientContext(null), port, null, null)).isEqualTo("none");
        CertificateAuthority.Issued good = ca.issueClient("device-7", List.of());
        assertThat(exchange(ca.clientContext(good), port, null, null)).isEqualTo("device-7");
    }

    @ParameterizedTest
    @EnumSource(
            value = Provider.class,
            names = {"JDK", "OPENSSL"})
    void new_connections_get_the_new_certificate_after_the_files_change(Provider provider) throws Exception {
        int port = start(ClientAuthMode.NONE, provider);
        SSLContext client = ca.clientContext(null);
        SSLSocket[] before = new SSLSocket[1];
        exchange(client, port, null, before);
        assertThat(peer(before[0])).contains("CN=server-1");

        // A key that does not belong to the certificate (a rotation caught half-way) keeps the old context.
        CertificateAuthority.Issued next = ca.issueServer("server-2", List.of("localhost", "127.0.0.1"));
        Path other = dir.resolve("other");
        Files.createDirectories(other);
        CertificateAuthority.Files nextFiles = next.written(other, "server");
        Files.copy(
                nextFiles.certificate(), serverFiles.certificate(), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertThat(contexts.check()).isFalse();
        assertThat(exchange(client, port, null, null)).isEqualTo("none");
        assertThat(contexts.certificate().getSubjectX500Principal().getName()).contains("CN=server-1");

        Files.copy(nextFiles.key(), serverFiles.key(), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertThat(contexts.check()).isTrue();
        SSLSocket[] after = new SSLSocket[1];
        exchange(client, port, null, after);
        assertThat(peer(after[0])).contains("CN=server-2");
        // The connection made before the change keeps working on its negotiated session.
        before[0].getOutputStream().write('y');
        before[0].getOutputStream().flush();
        assertThat(before[0].getInputStream().read()).isEqualTo('n');
        before[0].close();
        after[0].close();
    }

    @ParameterizedTest
    @EnumSource(
            value = Provider.class,
            names = {"JDK", "OPENSSL"})
    void tls_1_2_sessions_are_resumed(Provider provider) throws Exception {
        int port = start(ClientAuthMode.NONE, provider);
        SSLContext client = ca.clientContext(null);
        SSLSocket[] first = new SSLSocket[1];
        exchange(client, port, "TLSv1.2", first);
        byte[] id = first[0].getSession().getId();
        long created = first[0].getSession().getCreationTime();
        first[0].close();
        SSLSocket[] second = new SSLSocket[1];
        exchange(client, port, "TLSv1.2", second);
        assertThat(id).isNotEmpty();
        assertThat(second[0].getSession().getId()).isEqualTo(id);
        assertThat(second[0].getSession().getCreationTime()).isEqualTo(created);
        second[0].close();
    }

    private static String peer(SSLSocket socket) throws Exception {
        return ((X509Certificate) socket.getSession().getPeerCertificates()[0])
                .getSubjectX500Principal()
                .getName();
    }
}
