package io.tributary.transport.listener;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.tributary.transport.connection.ConnectionRegistry;
import io.tributary.transport.connection.Disconnector;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The MQTT listeners of the node: plain TCP and, when configured, TLS, WebSocket and secure WebSocket. They share
 * one set of event loops, so a node's connections are spread over the same threads whatever they came through.
 * Uses epoll where available.
 *
 * <p>On stop (SIGTERM) it drains: the listening sockets close first, so new CONNECTs go to the other nodes (the load
 * balancer sees a refused connection); then every MQTT 5 client gets DISCONNECT 0x8B (server shutting down), or
 * 0x9C (use another server) with a Server Reference when one is configured, and MQTT 3.x clients are closed. Nothing
 * of a persistent session lives only here: its unacknowledged QoS 1/2 messages stay in its queue in Redis and an
 * unacknowledged inbound publish is sent again by its client, so the node waits only for the connections to close,
 * at most the drain timeout, before it stops its event loops.
 */
public final class MqttListener implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(MqttListener.class);

    /** One listening socket: a name for logs ("mqtt", "mqtt-tls", ...), its port and its pipeline. */
    public record Endpoint(String name, int port, ChannelHandler initializer, String variable) {}

    public static final String PLAIN = "mqtt";

    private final String host;
    private final int ioThreads;
    private final List<Endpoint> endpoints;
    private final ConnectionRegistry registry;
    private final Disconnector disconnector;
    private final AutoCloseable onStop;
    private final DrainProperties drain;
    private EventLoopGroup bossGroup;
    private EventLoopGroup workerGroup;
    private final Map<String, Channel> serverChannels = new LinkedHashMap<>();
    private volatile boolean running;

    /**
     * @param onStop closed after the listeners stop (the TLS certificate poller), or null
     */
    public MqttListener(
            String host,
            int ioThreads,
            List<Endpoint> endpoints,
            ConnectionRegistry registry,
            Disconnector disconnector,
            AutoCloseable onStop,
            DrainProperties drain) {
        this.host = host;
        this.ioThreads = ioThreads;
        this.endpoints = List.copyOf(endpoints);
        this.registry = registry;
        this.disconnector = disconnector;
        this.onStop = onStop;
        this.drain = drain;
    }

    public MqttListener(
            String host,
            int port,
            int ioThreads,
            MqttChannelInitializer initializer,
            ConnectionRegistry registry,
            Disconnector disconnector) {
        this(
                host,
                ioThreads,
                List.of(new Endpoint(PLAIN, port, initializer, "MQTT_PORT")),
                registry,
                disconnector,
                null,
                new DrainProperties(java.time.Duration.ofSeconds(5), null));
    }

    @Override
    public void start() {
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerSocketChannel> channelType =
                epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        bossGroup = new MultiThreadIoEventLoopGroup(1, io);
        workerGroup = new MultiThreadIoEventLoopGroup(ioThreads, io);
        for (Endpoint endpoint : endpoints) {
            ServerBootstrap bootstrap = new ServerBootstrap()
                    .group(bossGroup, workerGroup)
                    .channel(channelType)
                    .option(ChannelOption.SO_BACKLOG, 4096)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.SO_KEEPALIVE, true)
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(32 * 1024, 256 * 1024))
                    .childHandler(endpoint.initializer());
            try {
                Channel channel = bootstrap
                        .bind(new InetSocketAddress(host, endpoint.port()))
                        .syncUninterruptibly()
                        .channel();
                serverChannels.put(endpoint.name(), channel);
            } catch (Exception e) {
                serverChannels.values().forEach(c -> c.close().syncUninterruptibly());
                workerGroup.shutdownGracefully();
                bossGroup.shutdownGracefully();
                throw new IllegalStateException(
                        "cannot listen for " + endpoint.name() + " on " + host + ":"
                                + endpoint.port() + " (is the port in use? set " + endpoint.variable() + "): "
                                + e.getMessage(),
                        e);
            }
            log.info(
                    "{} listening on {} ({})",
                    endpoint.name(),
                    serverChannels.get(endpoint.name()).localAddress(),
                    epoll ? "epoll" : "nio");
        }
        running = true;
    }

    /** The bound port of the plain MQTT listener (useful when configured as 0). */
    public int boundPort() {
        return boundPort(PLAIN);
    }

    /** The bound port of a listener by name, or -1 when it does not run. */
    public int boundPort(String name) {
        Channel channel = serverChannels.get(name);
        return channel == null ? -1 : ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void stop() {
        running = false;
        long started = System.nanoTime();
        serverChannels.values().forEach(c -> c.close().syncUninterruptibly());
        int clients = registry.size();
        String cause = drain.hasServerReference()
                ? "server shutting down, use " + drain.serverReference()
                : "server shutting down";
        log.info(
                "Draining: listeners closed, disconnecting {} client(s) with reason 0x{} (timeout {})",
                clients,
                String.format("%02X", drain.reasonCode()),
                drain.timeout());
        for (var connection : registry.all()) {
            connection
                    .channel()
                    .eventLoop()
                    .execute(() -> disconnector.disconnect(
                            connection.channel(), drain.reasonCode(), null, cause, drain.serverReference()));
        }
        long deadline = started + drain.timeout().toNanos();
        // This is Spring's shutdown thread, never an event loop: waiting here blocks no client.
        while (registry.size() > 0 && System.nanoTime() < deadline) {
            try {
                java.util.concurrent.TimeUnit.MILLISECONDS.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        int left = registry.size();
        if (left > 0) {
            log.warn("Drain timeout {} reached with {} connection(s) still open: closing them", drain.timeout(), left);
        } else {
            log.info(
                    "Drained {} client(s) in {} ms",
                    clients,
                    java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        }
        if (workerGroup != null) {
            workerGroup
                    .shutdownGracefully(0, 1_000, java.util.concurrent.TimeUnit.MILLISECONDS)
                    .syncUninterruptibly();
            bossGroup
                    .shutdownGracefully(0, 1_000, java.util.concurrent.TimeUnit.MILLISECONDS)
                    .syncUninterruptibly();
        }
        if (onStop != null) {
            try {
                onStop.close();
            } catch (Exception e) {
                log.warn("closing listener resources: {}", e.toString());
            }
        }
        log.info("MQTT listeners stopped");
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 100;
    }
}
