package io.tributary.transport.warmup;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.mqtt.MqttConnAckMessage;
import io.netty.handler.codec.mqtt.MqttConnectReturnCode;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageBuilders;
import io.netty.handler.codec.mqtt.MqttPublishMessage;
import io.netty.handler.codec.mqtt.MqttQoS;
import io.netty.handler.codec.mqtt.MqttSubAckMessage;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.tributary.common.session.WarmUpNamespace;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The client end of one warm-up session, as a well-behaved device would run it: CONNECT (clean, MQTT 5 or 3.1.1),
 * SUBSCRIBE to its own topic at QoS 1, {@code messages} PUBLISHes to it at QoS 1 and 0 alternately, each answered
 * (PUBACK) and delivered back (acknowledged), then UNSUBSCRIBE and DISCONNECT. {@link #result} completes with
 * null when all of it went through, or with what did not; never exceptionally. Runs on its channel's event loop.
 */
final class WarmUpSession extends SimpleChannelInboundHandler<MqttMessage> {

    private static final int SUBSCRIBE_ID = 1;
    private static final int UNSUBSCRIBE_ID = 2;
    private static final int FIRST_PUBLISH_ID = 3;

    private final String clientId;
    private final String topic;
    private final MqttVersion version;
    private final int messages;
    private final long stepTimeoutMillis;
    final CompletableFuture<String> result = new CompletableFuture<>();
    private int acknowledged;
    private int delivered;
    private int qos1Sent;
    private boolean unsubscribing;

    WarmUpSession(String nodeId, int n, int messages, long stepTimeoutMillis) {
        this.clientId = WarmUpNamespace.clientId(nodeId, n);
        this.topic = WarmUpNamespace.topic(nodeId, n);
        this.version = n % 2 == 0 ? MqttVersion.MQTT_5 : MqttVersion.MQTT_3_1_1;
        this.messages = messages;
        this.stepTimeoutMillis = stepTimeoutMillis;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        ctx.executor()
                .schedule(
                        () -> finish(ctx, "no answer within " + stepTimeoutMillis + " ms (" + progress() + ")"),
                        stepTimeoutMillis,
                        TimeUnit.MILLISECONDS);
        ctx.writeAndFlush(MqttMessageBuilders.connect()
                .clientId(clientId)
                .protocolVersion(version)
                .cleanSession(true)
                .keepAlive(60)
                .build());
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, MqttMessage message) {
        switch (message.fixedHeader().messageType()) {
            case CONNACK -> connected(ctx, (MqttConnAckMessage) message);
            case SUBACK -> subscribed(ctx, (MqttSubAckMessage) message);
            case PUBACK -> {
                acknowledged++;
                maybeDone(ctx);
            }
            case PUBLISH -> received(ctx, (MqttPublishMessage) message);
            case UNSUBACK -> {
                ctx.writeAndFlush(MqttMessage.DISCONNECT);
                finish(ctx, null);
            }
            case DISCONNECT -> finish(ctx, "disconnected by the node");
            default -> {
                // PINGRESP or anything else a node may send: nothing to do.
            }
        }
    }

    private void connected(ChannelHandlerContext ctx, MqttConnAckMessage connAck) {
        MqttConnectReturnCode code = connAck.variableHeader().connectReturnCode();
        if (code != MqttConnectReturnCode.CONNECTION_ACCEPTED) {
            finish(ctx, "CONNECT refused: " + code);
            return;
        }
        ctx.writeAndFlush(MqttMessageBuilders.subscribe()
                .messageId(SUBSCRIBE_ID)
                .addSubscription(MqttQoS.AT_LEAST_ONCE, topic)
                .build());
    }

    private void subscribed(ChannelHandlerContext ctx, MqttSubAckMessage subAck) {
        int granted = subAck.payload().grantedQoSLevels().get(0);
        if (granted != MqttQoS.AT_LEAST_ONCE.value()) {
            finish(ctx, "SUBSCRIBE answered 0x" + Integer.toHexString(granted));
            return;
        }
        for (int i = 0; i < messages; i++) {
            MqttQoS qos = i % 2 == 0 ? MqttQoS.AT_LEAST_ONCE : MqttQoS.AT_MOST_ONCE;
            if (qos == MqttQoS.AT_LEAST_ONCE) {
                qos1Sent++;
            }
            ctx.write(MqttMessageBuilders.publish()
                    .topicName(topic)
                    .qos(qos)
                    .messageId(qos == MqttQoS.AT_LEAST_ONCE ? FIRST_PUBLISH_ID + i : 0)
                    .retained(false)
                    .payload(Unpooled.copiedBuffer("warm-up " + i, StandardCharsets.US_ASCII))
                    .build());
        }
        ctx.flush();
        maybeDone(ctx);
    }

    private void received(ChannelHandlerContext ctx, MqttPublishMessage publish) {
        delivered++;
        if (publish.fixedHeader().qosLevel() == MqttQoS.AT_LEAST_ONCE) {
            ctx.writeAndFlush(MqttMessageBuilders.pubAck()
                    .packetId(publish.variableHeader().packetId())
                    .build());
        }
        maybeDone(ctx);
    }

    private void maybeDone(ChannelHandlerContext ctx) {
        if (acknowledged == qos1Sent && delivered >= messages && !unsubscribing && !result.isDone()) {
            unsubscribing = true;
            ctx.writeAndFlush(MqttMessageBuilders.unsubscribe()
                    .messageId(UNSUBSCRIBE_ID)
                    .addTopicFilter(topic)
                    .build());
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        finish(ctx, "closed by the node (" + progress() + ")");
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        finish(ctx, cause.toString());
    }

    private String progress() {
        return acknowledged + " of " + qos1Sent + " PUBACKs, " + delivered + " of " + messages + " delivered";
    }

    private void finish(ChannelHandlerContext ctx, String failure) {
        if (result.complete(failure)) {
            ctx.close();
        }
    }
}
