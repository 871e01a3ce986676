package io.tributary.transport.listener.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.tributary.transport.limits.LimitRefusals;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Origin check in the WebSocket listener's own pipeline on an EmbeddedChannel: upgrades it lets through get
 * 101 and leave it out of the pipeline, refused ones get 403, a closed connection and a counted refusal.
 */
class OriginCheckHandlerTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final LimitRefusals refusals = new LimitRefusals(registry, System::nanoTime);
    private final List<Object> reachedMqtt = new ArrayList<>();

    private EmbeddedChannel channel(OriginPolicy policy) {
        EmbeddedChannel channel = new EmbeddedChannel();
        new WebSocketChannelInitializer(
                        "/mqtt",
                        1024,
                        null,
                        null,
                        Duration.ofSeconds(5),
                        new OriginCheckHandler(policy, refusals),
                        p -> p.addLast(new ChannelInboundHandlerAdapter() {
                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                reachedMqtt.add(msg);
                            }
                        }))
                .addWebSocket(channel.pipeline());
        return channel;
    }

    private static String upgrade(EmbeddedChannel channel, String host, String origin) {
        String request = "GET /mqtt HTTP/1.1\r\nHost: " + host + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Protocol: mqtt\r\n" + (origin == null ? "" : "Origin: " + origin + "\r\n") + "\r\n";
        channel.writeInbound(Unpooled.copiedBuffer(request, StandardCharsets.US_ASCII));
        StringBuilder response = new StringBuilder();
        for (ByteBuf out; (out = channel.readOutbound()) != null; ) {
            response.append(out.toString(StandardCharsets.US_ASCII));
            out.release();
        }
        return response.toString();
    }

    private double counted() {
        return registry.get("tributary.limit.refusals")
                .tag("reason", LimitRefusals.WEBSOCKET_ORIGIN)
                .counter()
                .count();
    }

    /** Accepted: the check was in the pipeline between the aggregator and the handshake, and has left it. */
    private static void assertUpgradedPastTheCheck(EmbeddedChannel channel, String response) {
        assertThat(response).startsWith("HTTP/1.1 101");
        assertThat(channel.isOpen()).isTrue();
        assertThat(channel.pipeline().get(OriginCheckHandler.class)).isNull();
    }

    private static void assertChecking(EmbeddedChannel channel) {
        assertThat(channel.pipeline().names())
                .containsSubsequence(
                        WebSocketChannelInitializer.HTTP_AGGREGATOR,
                        WebSocketChannelInitializer.ORIGIN_CHECK,
                        WebSocketChannelInitializer.WEBSOCKET);
    }

    private void assertRefused(EmbeddedChannel channel, String response, double refusalsBefore) {
        assertThat(response)
                .startsWith("HTTP/1.1 403")
                .containsIgnoringCase("connection: close")
                .endsWith("This web page's origin may not open MQTT over WebSocket here.\n");
        assertThat(channel.isOpen()).isFalse();
        assertThat(counted()).isEqualTo(refusalsBefore + 1);
        assertThat(reachedMqtt).isEmpty();
    }

    @Test
    void an_upgrade_without_origin_is_accepted_and_a_foreign_one_refused() {
        EmbeddedChannel channel = channel(OriginPolicy.sameOrigin());
        assertChecking(channel);
        assertUpgradedPastTheCheck(channel, upgrade(channel, "127.0.0.1:8083", null));
        EmbeddedChannel foreign = channel(OriginPolicy.sameOrigin());
        assertRefused(foreign, upgrade(foreign, "127.0.0.1:8083", "http://evil.example"), 0);
    }

    @Test
    void a_same_origin_page_is_accepted_by_default_and_another_port_refused() {
        EmbeddedChannel same = channel(OriginPolicy.sameOrigin());
        assertChecking(same);
        assertUpgradedPastTheCheck(same, upgrade(same, "broker.lan:8083", "http://broker.lan:8083"));
        EmbeddedChannel otherPort = channel(OriginPolicy.sameOrigin());
        assertRefused(otherPort, upgrade(otherPort, "broker.lan:8083", "http://broker.lan:8080"), 0);
    }

    @Test
    void a_listed_origin_is_accepted_and_an_unlisted_one_refused() {
        OriginPolicy policy = OriginPolicy.of(List.of("http://127.0.0.1:8080", "http://localhost:8080"));
        EmbeddedChannel listed = channel(policy);
        assertChecking(listed);
        assertUpgradedPastTheCheck(listed, upgrade(listed, "localhost:8083", "http://localhost:8080"));
        // With a list, even a same-origin page (or a rebound name) must be on it.
        EmbeddedChannel unlisted = channel(policy);
        assertRefused(unlisted, upgrade(unlisted, "rebind.example:8083", "http://rebind.example:8083"), 0);
    }

    @Test
    void a_refused_upgrade_gets_403_a_close_and_one_counted_refusal_each() {
        EmbeddedChannel first = channel(OriginPolicy.sameOrigin());
        assertRefused(first, upgrade(first, "127.0.0.1:8083", "null"), 0);
        EmbeddedChannel second = channel(OriginPolicy.sameOrigin());
        assertRefused(second, upgrade(second, "127.0.0.1:8083", "https://evil.example"), 1);
        assertThat(refusals.count(LimitRefusals.WEBSOCKET_ORIGIN)).isEqualTo(2);
        // The request was not handed on: no handshake, no WebSocket handler answering the close with a frame.
        assertThat(first.outboundMessages()).isEmpty();
    }

    @Test
    void the_logged_origin_is_cut_and_printable() {
        assertThat(OriginCheckHandler.printable("http://a.example\r\nFAKE LINE\u0085"))
                .isEqualTo("http://a.example??FAKE LINE?");
        assertThat(OriginCheckHandler.printable("x".repeat(500))).hasSize(123).endsWith("...");
    }
}
