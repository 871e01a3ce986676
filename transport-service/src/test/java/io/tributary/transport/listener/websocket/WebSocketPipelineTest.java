package io.tributary.transport.listener.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameEncoder;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.mqtt.MqttDecoder;
import io.netty.handler.codec.mqtt.MqttEncoder;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.tributary.transport.limits.LimitRefusals;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The WebSocket listener's pipeline on an EmbeddedChannel, with the MQTT codec behind it in place of the whole
 * MQTT chain: upgrade, sub-protocol choice, packets split across frames and several packets in one frame, binary
 * frames out, and the refusals (text frame, other path).
 */
class WebSocketPipelineTest {

    private final List<MqttMessage> decoded = new ArrayList<>();
    private final OriginCheckHandler originCheck = new OriginCheckHandler(
            OriginPolicy.sameOrigin(), new LimitRefusals(new SimpleMeterRegistry(), System::nanoTime));

    private EmbeddedChannel channel() {
        EmbeddedChannel channel = new EmbeddedChannel();
        new WebSocketChannelInitializer("/mqtt", 1024, null, null, Duration.ofSeconds(5), originCheck, p -> {
                    p.addLast(new MqttDecoder(1024));
                    p.addLast(MqttEncoder.INSTANCE);
                    p.addLast(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            decoded.add((MqttMessage) msg);
                        }
                    });
                })
                .addWebSocket(channel.pipeline());
        return channel;
    }

    private static String upgrade(EmbeddedChannel channel, String path, String protocol) {
        String request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + (protocol == null ? "" : "Sec-WebSocket-Protocol: " + protocol + "\r\n") + "\r\n";
        channel.writeInbound(Unpooled.copiedBuffer(request, StandardCharsets.US_ASCII));
        StringBuilder response = new StringBuilder();
        for (ByteBuf out; (out = channel.readOutbound()) != null; ) {
            response.append(out.toString(StandardCharsets.US_ASCII));
            out.release();
        }
        return response.toString();
    }

    /** Client frames are masked (RFC 6455), as a browser sends them. */
    private static ByteBuf clientFrame(WebSocketFrame frame) {
        EmbeddedChannel encoder = new EmbeddedChannel(new WebSocket13FrameEncoder(true));
        encoder.writeOutbound(frame);
        ByteBuf bytes = encoder.readOutbound();
        encoder.finishAndReleaseAll();
        return bytes;
    }

    private static final byte[] PINGREQ = {(byte) 0xC0, 0x00};
    /** MQTT 3.1.1 CONNECT, client id "ws1", keep alive 60. */
    private static final byte[] CONNECT = {
        0x10, 0x0F, 0x00, 0x04, 'M', 'Q', 'T', 'T', 0x04, 0x02, 0x00, 0x3C, 0x00, 0x03, 'w', 's', '1'
    };

    @Test
    void upgrades_with_the_mqtt_subprotocols() {
        assertThat(upgrade(channel(), "/mqtt", "mqtt"))
                .startsWith("HTTP/1.1 101")
                .containsIgnoringCase("sec-websocket-protocol: mqtt\r\n");
        assertThat(upgrade(channel(), "/mqtt", "mqttv3.1"))
                .startsWith("HTTP/1.1 101")
                .containsIgnoringCase("sec-websocket-protocol: mqttv3.1");
    }

    @Test
    void answers_404_on_another_path() {
        EmbeddedChannel channel = channel();
        assertThat(upgrade(channel, "/other", "mqtt")).startsWith("HTTP/1.1 404");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void reassembles_packets_across_frames_and_splits_frames_holding_several_packets() {
        EmbeddedChannel channel = channel();
        upgrade(channel, "/mqtt", "mqtt");
        // CONNECT split in three: 5 bytes, then a continuation frame pair.
        channel.writeInbound(clientFrame(new BinaryWebSocketFrame(false, 0, Unpooled.wrappedBuffer(CONNECT, 0, 5))));
        channel.writeInbound(
                clientFrame(new ContinuationWebSocketFrame(false, 0, Unpooled.wrappedBuffer(CONNECT, 5, 6))));
        assertThat(decoded).isEmpty();
        channel.writeInbound(clientFrame(
                new ContinuationWebSocketFrame(true, 0, Unpooled.wrappedBuffer(CONNECT, 11, CONNECT.length - 11))));
        assertThat(decoded).extracting(m -> m.fixedHeader().messageType()).containsExactly(MqttMessageType.CONNECT);
        // Two PINGREQs and the first byte of a third in one frame, the rest in the next frame.
        byte[] three = {PINGREQ[0], PINGREQ[1], PINGREQ[0], PINGREQ[1], PINGREQ[0]};
        channel.writeInbound(clientFrame(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(three))));
        channel.writeInbound(clientFrame(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(new byte[] {0x00}))));
        assertThat(decoded)
                .extracting(m -> m.fixedHeader().messageType())
                .containsExactly(
                        MqttMessageType.CONNECT,
                        MqttMessageType.PINGREQ,
                        MqttMessageType.PINGREQ,
                        MqttMessageType.PINGREQ);
        channel.finishAndReleaseAll();
    }

    @Test
    void writes_packets_as_binary_frames() {
        EmbeddedChannel channel = channel();
        upgrade(channel, "/mqtt", "mqtt");
        channel.writeAndFlush(MqttMessage.PINGRESP);
        EmbeddedChannel client = new EmbeddedChannel(new WebSocket13FrameDecoder(false, false, 1024));
        for (Object out; (out = channel.readOutbound()) != null; ) {
            client.writeInbound(out);
        }
        WebSocketFrame frame = client.readInbound();
        assertThat(frame).isInstanceOf(BinaryWebSocketFrame.class);
        assertThat(ByteBufUtil.getBytes(frame.content())).containsExactly((byte) 0xD0, 0x00);
        frame.release();
        client.finishAndReleaseAll();
        channel.finishAndReleaseAll();
    }

    @Test
    void a_text_frame_closes_the_connection() {
        EmbeddedChannel channel = channel();
        upgrade(channel, "/mqtt", "mqtt");
        channel.writeInbound(clientFrame(new TextWebSocketFrame("hello")));
        EmbeddedChannel client = new EmbeddedChannel(new WebSocket13FrameDecoder(false, false, 1024));
        for (Object out; (out = channel.readOutbound()) != null; ) {
            client.writeInbound(out);
        }
        CloseWebSocketFrame close = client.readInbound();
        assertThat(close.statusCode()).isEqualTo(1003);
        close.release();
        assertThat(channel.isOpen()).isFalse();
        assertThat(decoded).isEmpty();
    }

    @Test
    void user_events_from_the_head_reach_the_mqtt_chain() {
        // The keep-alive IdleStateHandler is added first in the pipeline; its events must cross the HTTP/WebSocket
        // handlers to reach the MQTT handlers.
        List<Object> events = new ArrayList<>();
        EmbeddedChannel channel = new EmbeddedChannel();
        new WebSocketChannelInitializer(
                        "/mqtt",
                        1024,
                        null,
                        null,
                        Duration.ofSeconds(5),
                        originCheck,
                        p -> p.addLast(new ChannelInboundHandlerAdapter() {
                            @Override
                            public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                                events.add(evt);
                            }
                        }))
                .addWebSocket(channel.pipeline());
        upgrade(channel, "/mqtt", "mqtt");
        channel.pipeline().fireUserEventTriggered(io.netty.handler.timeout.IdleStateEvent.READER_IDLE_STATE_EVENT);
        assertThat(events).contains(io.netty.handler.timeout.IdleStateEvent.READER_IDLE_STATE_EVENT);
    }
}
