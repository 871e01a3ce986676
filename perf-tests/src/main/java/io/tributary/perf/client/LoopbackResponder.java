package io.tributary.perf.client;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.mqtt.MqttConnectReturnCode;
import io.netty.handler.codec.mqtt.MqttDecoder;
import io.netty.handler.codec.mqtt.MqttEncoder;
import io.netty.handler.codec.mqtt.MqttFixedHeader;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageBuilders;
import io.netty.handler.codec.mqtt.MqttMessageIdVariableHeader;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttQoS;
import io.netty.handler.codec.mqtt.MqttSubAckMessage;
import io.netty.handler.codec.mqtt.MqttSubAckPayload;
import io.netty.handler.codec.mqtt.MqttSubscribeMessage;
import io.netty.handler.codec.mqtt.MqttTopicSubscription;
import java.net.InetSocketAddress;

/**
 * The smallest MQTT peer the generator's clients can connect to: an in-process listener on 127.0.0.1 (an ephemeral
 * port) that accepts every CONNECT, grants every SUBSCRIBE as asked, answers PINGREQ and closes on DISCONNECT.
 * It exists so that the generator can run its real connect path (bootstrap, socket, codecs, the client's state
 * machine) before a run without touching the broker it measures ({@code load.SelfConnectWarmUp}).
 */
public final class LoopbackResponder implements AutoCloseable {

    private final EventLoopGroup group;
    private final Channel server;

    private LoopbackResponder(EventLoopGroup group, Channel server) {
        this.group = group;
        this.server = server;
    }

    /** Listens on 127.0.0.1 with one event loop of its own (epoll when available). */
    public static LoopbackResponder start() throws InterruptedException {
        boolean epoll = Epoll.isAvailable();
        EventLoopGroup group =
                new MultiThreadIoEventLoopGroup(1, epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        try {
            Channel server = new ServerBootstrap()
                    .group(group)
                    .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new MqttDecoder(), MqttEncoder.INSTANCE, Answers.INSTANCE);
                        }
                    })
                    .bind(new InetSocketAddress("127.0.0.1", 0))
                    .sync()
                    .channel();
            return new LoopbackResponder(group, server);
        } catch (InterruptedException | RuntimeException e) {
            group.shutdownGracefully();
            throw e;
        }
    }

    public int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully().syncUninterruptibly();
    }

    /** The answers; the decoder records each connection's protocol level, so the encoder speaks it back. */
    @ChannelHandler.Sharable
    private static final class Answers extends SimpleChannelInboundHandler<MqttMessage> {

        static final Answers INSTANCE = new Answers();

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, MqttMessage msg) {
            if (msg.decoderResult().isFailure()) {
                ctx.close();
                return;
            }
            switch (msg.fixedHeader().messageType()) {
                case CONNECT ->
                    ctx.writeAndFlush(MqttMessageBuilders.connAck()
                            .returnCode(MqttConnectReturnCode.CONNECTION_ACCEPTED)
                            .build());
                case SUBSCRIBE -> ctx.writeAndFlush(subAck((MqttSubscribeMessage) msg));
                case PINGREQ ->
                    ctx.writeAndFlush(new MqttMessage(
                            new MqttFixedHeader(MqttMessageType.PINGRESP, false, MqttQoS.AT_MOST_ONCE, false, 0)));
                case DISCONNECT -> ctx.close();
                default -> {
                    // Publishing is not warmed here (SelfWarmUp does that in memory): nothing to answer.
                }
            }
        }

        private static MqttSubAckMessage subAck(MqttSubscribeMessage subscribe) {
            int[] granted = subscribe.payload().topicSubscriptions().stream()
                    .map(MqttTopicSubscription::qualityOfService)
                    .mapToInt(MqttQoS::value)
                    .toArray();
            return new MqttSubAckMessage(
                    new MqttFixedHeader(MqttMessageType.SUBACK, false, MqttQoS.AT_MOST_ONCE, false, 0),
                    MqttMessageIdVariableHeader.from(subscribe.variableHeader().messageId()),
                    new MqttSubAckPayload(granted));
        }
    }
}
