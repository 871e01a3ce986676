package io.tributary.transport.listener.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameEncoder;
import io.netty.handler.codec.mqtt.MqttDecoder;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.tributary.transport.connection.ClientAddress;
import io.tributary.transport.limits.LimitRefusals;
import io.tributary.transport.listener.proxy.ProxyHeaders;
import io.tributary.transport.listener.proxy.ProxyProtocolInitializer;
import io.tributary.transport.listener.proxy.ProxyProtocolProperties;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The WebSocket listener behind the PROXY protocol: the header, the HTTP upgrade right behind it in the same read,
 * then an MQTT CONNECT in a binary frame; the MQTT chain sees the CONNECT and the header's source as the client.
 */
class WebSocketBehindProxyProtocolTest {

    private static final byte[] CONNECT = {
        0x10, 0x0F, 0x00, 0x04, 'M', 'Q', 'T', 'T', 0x04, 0x02, 0x00, 0x3C, 0x00, 0x03, 'w', 's', '1'
    };

    private final List<MqttMessage> decoded = new ArrayList<>();
    private final List<SocketAddress> addresses = new ArrayList<>();

    @Test
    void upgrades_and_decodes_mqtt_behind_the_header_with_the_client_address() throws Exception {
        LimitRefusals refusals = new LimitRefusals(new SimpleMeterRegistry(), System::nanoTime);
        OriginCheckHandler originCheck = new OriginCheckHandler(OriginPolicy.sameOrigin(), refusals);
        WebSocketChannelInitializer ws =
                new WebSocketChannelInitializer("/mqtt", 1024, null, null, Duration.ofSeconds(5), originCheck, p -> {
                    p.addLast(new MqttDecoder(1024));
                    p.addLast(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            decoded.add((MqttMessage) msg);
                            addresses.add(ClientAddress.of(ctx.channel()));
                        }
                    });
                });
        ProxyProtocolInitializer proxy = new ProxyProtocolInitializer(
                new ProxyProtocolProperties(true, List.of(), Duration.ofSeconds(5)), ws::addWebSocket, refusals);
        EmbeddedChannel channel = new EmbeddedChannel(false, false);
        channel.pipeline().addLast(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                proxy.init(ch);
            }
        });
        channel.register();

        String upgrade = "GET /mqtt HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Protocol: mqtt\r\n\r\n";
        channel.writeInbound(Unpooled.wrappedBuffer(ProxyHeaders.concat(
                ProxyHeaders.v2("203.0.113.9", 5050, "10.0.0.1", 8083), upgrade.getBytes(StandardCharsets.US_ASCII))));
        StringBuilder response = new StringBuilder();
        for (ByteBuf out; (out = channel.readOutbound()) != null; ) {
            response.append(out.toString(StandardCharsets.US_ASCII));
            out.release();
        }
        assertThat(response.toString()).startsWith("HTTP/1.1 101");

        EmbeddedChannel encoder = new EmbeddedChannel(new WebSocket13FrameEncoder(true));
        encoder.writeOutbound(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(CONNECT)));
        channel.writeInbound((ByteBuf) encoder.readOutbound());
        encoder.finishAndReleaseAll();

        assertThat(decoded).extracting(m -> m.fixedHeader().messageType()).containsExactly(MqttMessageType.CONNECT);
        assertThat(addresses).containsExactly(new InetSocketAddress("203.0.113.9", 5050));
    }
}
