package io.tributary.transport.listener;

import java.net.InetSocketAddress;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
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

/**
 * The MQTT TCP listener. Uses epoll where available. On stop it closes the listening socket first, then tells
 * every MQTT 5 client the server is shutting down (reason 0x8B) and closes the connections.
 */
public final class MqttListener implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(MqttListener.class);

    private final String host;
    private final int port;
    private final int ioThreads;
    private final MqttChannelInitializer initializer;
    private final ConnectionRegistry registry;
    private final Disconnector disconnector;
    private EventLoopGroup bossGroup;
    private EventLoopGroup workerGroup;
    private Channel serverChannel;
    private volatile boolean running;

    public MqttListener(String host, int port, int ioThreads, MqttChannelInitializer initializer,
            ConnectionRegistry registry, Disconnector disconnector) {
        this.host = host;
        this.port = port;
        this.ioThreads = ioThreads;
        this.initializer = initializer;
        this.registry = registry;
        this.disconnector = disconnector;
    }

    @Override
    public void start() {
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerSocketChannel> channelType = epoll ? EpollServerSocketChannel.class
                : NioServerSocketChannel.class;
        bossGroup = new MultiThreadIoEventLoopGroup(1, io);
        workerGroup = new MultiThreadIoEventLoopGroup(ioThreads, io);
        ServerBootstrap bootstrap = new ServerBootstrap().group(bossGroup, workerGroup).channel(channelType)
                .option(ChannelOption.SO_BACKLOG, 4096)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(32 * 1024, 256 * 1024))
                .childHandler(initializer);
        try {
            serverChannel = bootstrap.bind(new InetSocketAddress(host, port)).syncUninterruptibly().channel();
        } catch (Exception e) {
            workerGroup.shutdownGracefully();
            bossGroup.shutdownGracefully();
            throw new IllegalStateException("cannot listen for MQTT on " + host + ":" + port
                    + " (is the port in use? set MQTT_PORT): " + e.getMessage(), e);
        }
        running = true;
        log.info("MQTT listening on {} ({})", serverChannel.localAddress(), epoll ? "epoll" : "nio");
    }

    /** The bound port (useful when configured as 0). */
    public int boundPort() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    @Override
    public void stop() {
        running = false;
        if (serverChannel != null) {
            serverChannel.close().syncUninterruptibly();
        }
        for (var connection : registry.all()) {
            connection.channel().eventLoop().execute(() -> disconnector.disconnect(connection.channel(), (byte) 0x8B,
                    null, "server shutting down"));
        }
        if (workerGroup != null) {
            workerGroup.shutdownGracefully(200, 5_000, java.util.concurrent.TimeUnit.MILLISECONDS)
                    .syncUninterruptibly();
            bossGroup.shutdownGracefully(0, 1_000, java.util.concurrent.TimeUnit.MILLISECONDS).syncUninterruptibly();
        }
        log.info("MQTT listener stopped");
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
