package io.tributary.transport.listener.websocket;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.tributary.transport.listener.tls.ReloadingSslContext;
import io.tributary.transport.listener.tls.TlsChannelInitializer;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * MQTT over WebSocket (and over secure WebSocket when given a TLS context): HTTP/1.1 upgrade on one path with the
 * sub-protocol {@code mqtt} (MQTT 3.1.1 / 5) or {@code mqttv3.1} (older clients), from a web page only if its
 * origin is allowed ({@link OriginCheckHandler}), then the same MQTT pipeline as TCP behind {@link WebSocketMqttCodec}.
 */
public final class WebSocketChannelInitializer extends ChannelInitializer<SocketChannel> {

    public static final String SUBPROTOCOLS = "mqtt,mqttv3.1";
    public static final String HTTP_CODEC = "httpCodec";
    public static final String HTTP_AGGREGATOR = "httpAggregator";
    public static final String ORIGIN_CHECK = "originCheck";
    public static final String WEBSOCKET = "webSocket";
    public static final String WEBSOCKET_MQTT = "webSocketMqtt";
    /** The upgrade request is all we aggregate; a bigger one is refused (413). */
    private static final int MAX_UPGRADE_REQUEST = 8192;

    private final String path;
    private final int maxFramePayload;
    private final ReloadingSslContext tls;
    private final Duration tlsHandshakeTimeout;
    private final Duration upgradeTimeout;
    private final OriginCheckHandler originCheck;
    private final Consumer<ChannelPipeline> mqtt;

    /**
     * @param maxPacketSize the MQTT maximum packet size: a frame can hold one such packet (plus its header);
     *                      several smaller packets per frame are fine too, larger frames are refused (close 1009)
     * @param tls           null for plain WebSocket
     * @param originCheck   shared by every connection of the listener
     */
    public WebSocketChannelInitializer(
            String path,
            int maxPacketSize,
            ReloadingSslContext tls,
            Duration tlsHandshakeTimeout,
            Duration upgradeTimeout,
            OriginCheckHandler originCheck,
            Consumer<ChannelPipeline> mqtt) {
        this.path = path;
        // Fixed header: 1 byte type + up to 4 bytes remaining length.
        this.maxFramePayload = Math.max(64 * 1024, maxPacketSize + 5);
        this.tls = tls;
        this.tlsHandshakeTimeout = tlsHandshakeTimeout;
        this.upgradeTimeout = upgradeTimeout;
        this.originCheck = originCheck;
        this.mqtt = mqtt;
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        addWebSocket(channel.pipeline());
    }

    /** Visible for tests, which build the same pipeline on an EmbeddedChannel. */
    public void addWebSocket(ChannelPipeline p) {
        if (tls != null) {
            TlsChannelInitializer.addTls(p, tls, tlsHandshakeTimeout);
        }
        p.addLast(HTTP_CODEC, new HttpServerCodec());
        p.addLast(HTTP_AGGREGATOR, new HttpObjectAggregator(MAX_UPGRADE_REQUEST));
        p.addLast(ORIGIN_CHECK, originCheck);
        p.addLast(
                WEBSOCKET,
                new WebSocketServerProtocolHandler(WebSocketServerProtocolConfig.newBuilder()
                        .websocketPath(path)
                        .subprotocols(SUBPROTOCOLS)
                        .handshakeTimeoutMillis(upgradeTimeout.toMillis())
                        .decoderConfig(WebSocketDecoderConfig.newBuilder()
                                .maxFramePayloadLength(maxFramePayload)
                                // Browsers always mask; a server must refuse unmasked client frames (RFC 6455 5.1).
                                .expectMaskedFrames(true)
                                .allowExtensions(false)
                                .build())
                        .build()));
        p.addLast(WEBSOCKET_MQTT, WebSocketMqttCodec.INSTANCE);
        mqtt.accept(p);
    }
}
