package io.tributary.perf.client;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.mqtt.MqttDecoder;
import io.netty.handler.codec.mqtt.MqttEncoder;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.handler.timeout.IdleStateHandler;
import io.tributary.perf.measure.LiveMetrics;
import io.tributary.perf.scenario.Endpoint;
import io.tributary.perf.scenario.TlsOptions;
import java.io.File;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLException;

/**
 * Opens client connections on a few event loops (epoll when available): no thread per client. Each connection is
 * bound to the next of {@code sourceAddresses} loopback addresses before it connects, so one process can hold more
 * connections to one listener than one source address has ephemeral ports (~28k with Linux defaults). With epoll,
 * IP_BIND_ADDRESS_NO_PORT defers the port choice to connect() so ports are shared across targets.
 */
public final class Connector implements AutoCloseable {

    private static final int MAX_PACKET_BYTES = 16 * 1024 * 1024 + 1024;
    private static final int CONNECT_TIMEOUT_MILLIS = 15_000;

    private final EventLoopGroup group;
    private final boolean epoll;
    private final int sourceAddresses;
    /** Whether targets outside loopback are accepted (--allow-remote). */
    private final boolean allowRemote;
    /** Whether each connection starts with a PROXY protocol v2 header (--proxy-protocol). */
    private final boolean proxyProtocol;

    private final SslContext ssl;
    private final LiveMetrics metrics;
    private final PublishGate gate;
    private final AtomicLong counter = new AtomicLong();
    private final AtomicLong proxyConnections = new AtomicLong();
    private final Map<Endpoint, InetSocketAddress> resolved = new HashMap<>();

    public Connector(
            int ioThreads,
            int sourceAddresses,
            TlsOptions tls,
            boolean needsTls,
            LiveMetrics metrics,
            PublishGate gate,
            boolean allowRemote,
            boolean proxyProtocol) {
        this.allowRemote = allowRemote;
        this.proxyProtocol = proxyProtocol;
        this.epoll = Epoll.isAvailable();
        int threads = ioThreads > 0 ? ioThreads : Runtime.getRuntime().availableProcessors();
        this.group = new MultiThreadIoEventLoopGroup(
                threads, epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        this.sourceAddresses = Math.max(1, sourceAddresses);
        this.ssl = needsTls ? sslContext(tls) : null;
        this.metrics = metrics;
        this.gate = gate;
    }

    public boolean usesEpoll() {
        return epoll;
    }

    /**
     * Resolves (and checks: loopback only, unless --allow-remote) every endpoint up front, so a bad target fails
     * before any load.
     */
    public void prepare(List<Endpoint> endpoints) {
        for (Endpoint e : endpoints) {
            resolved.computeIfAbsent(e, endpoint -> endpoint.resolve(allowRemote));
        }
    }

    /** Starts one connection; the returned client reports through {@code events}. */
    public MqttLoadClient connect(ConnectionPlan plan, ClientEvents events) {
        InetSocketAddress remote = resolved.computeIfAbsent(plan.endpoint(), endpoint -> endpoint.resolve(allowRemote));
        long start = System.nanoTime();
        MqttLoadClient client = new MqttLoadClient(plan, metrics, gate, events, start);
        long number = proxyConnections.getAndIncrement();
        Bootstrap bootstrap = new Bootstrap()
                .group(group)
                .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MILLIS)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(32 * 1024, 256 * 1024))
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (proxyProtocol) {
                            // In clear, before the TLS handshake, as a load balancer sends it.
                            ch.pipeline().addLast(new ProxyHeaderWriter(number));
                        }
                        if (plan.endpoint().tls()) {
                            ch.pipeline()
                                    .addLast(ssl.newHandler(
                                            ch.alloc(),
                                            plan.endpoint().host(),
                                            plan.endpoint().port()));
                        }
                        ch.pipeline().addLast(new MqttDecoder(MAX_PACKET_BYTES));
                        ch.pipeline().addLast(MqttEncoder.INSTANCE);
                        if (plan.keepAliveSeconds() > 0) {
                            // Ping at 3/4 of the keep alive: the broker's deadline is 1.5x, so this never races it.
                            long pingMillis = Math.max(500, plan.keepAliveSeconds() * 750L);
                            ch.pipeline().addLast(new IdleStateHandler(0, pingMillis, 0, TimeUnit.MILLISECONDS));
                        }
                        ch.pipeline().addLast(client);
                    }
                });
        if (epoll) {
            bootstrap.option(EpollChannelOption.IP_BIND_ADDRESS_NO_PORT, true);
        }
        metrics.connectAttempts.increment();
        ChannelFuture future;
        InetAddress source = sourceFor(remote.getAddress());
        if (source != null) {
            future = bootstrap.connect(remote, new InetSocketAddress(source, 0));
        } else {
            future = bootstrap.connect(remote);
        }
        future.addListener(f -> {
            if (!f.isSuccess()) {
                client.connectFailed(f.cause());
            }
        });
        return client;
    }

    /** The next 127.0.0.x source address, or null (let the kernel choose) for IPv6 or a single address. */
    private InetAddress sourceFor(InetAddress remote) {
        // 127.0.0.x sources can only reach loopback: a remote target gets the kernel's choice.
        if (sourceAddresses <= 1 || !(remote instanceof Inet4Address) || !remote.isLoopbackAddress()) {
            return null;
        }
        int index = (int) (counter.getAndIncrement() % sourceAddresses);
        try {
            return InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) (1 + index)});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private static SslContext sslContext(TlsOptions tls) {
        try {
            SslContextBuilder builder = SslContextBuilder.forClient().sslProvider(SslProvider.JDK);
            if (tls.trustAll()) {
                builder.trustManager(InsecureTrustManagerFactory.INSTANCE);
            } else if (tls.caFile() != null) {
                builder.trustManager(new File(tls.caFile()));
            }
            return builder.build();
        } catch (SSLException e) {
            throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
        }
    }

    /** Runs a task on one of the loops after a delay (used by the ramp so it needs no thread of its own). */
    public EventLoopGroup group() {
        return group;
    }

    @Override
    public void close() {
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
