package io.tributary.perf.client;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.mqtt.MqttConnAckMessage;
import io.netty.handler.codec.mqtt.MqttConnectReturnCode;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageBuilders;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttPublishMessage;
import io.netty.handler.codec.mqtt.MqttQoS;
import io.netty.handler.codec.mqtt.MqttSubAckMessage;
import io.netty.handler.timeout.IdleStateEvent;
import io.tributary.perf.measure.Clock;
import io.tributary.perf.measure.LiveMetrics;
import io.tributary.perf.measure.Payload;
import io.tributary.perf.measure.SequenceTracker;
import io.tributary.perf.scenario.MqttProtocol;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One simulated MQTT client, living entirely on its channel's event loop: CONNECT, SUBSCRIBE or paced PUBLISH with
 * the QoS 1/2 handshakes on both sides, PINGREQ when idle, and the per-publisher sequence tracking loss and
 * duplicates are computed from. No locks: everything here runs on one thread; the orchestration reads the
 * counters only after the loops have stopped.
 */
public final class MqttLoadClient extends SimpleChannelInboundHandler<MqttMessage> {

    private static final int SUBSCRIBE_PACKET_ID = 1;
    /** A broker that has not answered CONNECT (and SUBSCRIBE) by then counts as a failed connection. */
    static final int READY_TIMEOUT_SECONDS = 30;

    private final ConnectionPlan plan;
    private final LiveMetrics metrics;
    private final ClientEvents events;
    private final long connectStartNanos;

    // Subscriber side.
    private final Map<Integer, SequenceTracker> receivedByPublisher = new HashMap<>();
    private final Set<Integer> awaitingPubRel = new HashSet<>();

    /** Null for a subscriber or a connect-only client. */
    private final Publisher publisher;

    private Channel channel;
    private boolean established;
    private boolean finished;
    private boolean closing;

    public MqttLoadClient(
            ConnectionPlan plan, LiveMetrics metrics, PublishGate gate, ClientEvents events, long connectStartNanos) {
        this.plan = plan;
        this.metrics = metrics;
        this.events = events;
        this.connectStartNanos = connectStartNanos;
        this.publisher = plan.isPublisher() ? new Publisher(plan.publisher(), metrics, gate) : null;
    }

    public ConnectionPlan plan() {
        return plan;
    }

    public boolean established() {
        return established;
    }

    public Map<Integer, SequenceTracker> receivedByPublisher() {
        return receivedByPublisher;
    }

    /** Measured publishes per topic slot; empty for a client that does not publish. */
    public long[] sentPerSlot() {
        return publisher == null ? new long[0] : publisher.sentPerSlot();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        MqttProperties properties = new MqttProperties();
        if (plan.protocol() == MqttProtocol.V5 && plan.sessionExpirySeconds() > 0) {
            properties.add(new MqttProperties.IntegerProperty(
                    MqttProperties.MqttPropertyType.SESSION_EXPIRY_INTERVAL.value(),
                    (int) Math.min(plan.sessionExpirySeconds(), 0xFFFF_FFFFL)));
        }
        ctx.writeAndFlush(MqttMessageBuilders.connect()
                .protocolVersion(plan.protocol().nettyVersion())
                .clientId(plan.clientId())
                .cleanSession(plan.cleanStart())
                .keepAlive(plan.keepAliveSeconds())
                .properties(properties)
                .build());
        ctx.executor()
                .schedule(
                        () -> {
                            if (!finished) {
                                fail("no CONNACK" + (plan.subscriber() != null ? "/SUBACK" : "") + " within "
                                        + READY_TIMEOUT_SECONDS + " s");
                                ctx.close();
                            }
                        },
                        READY_TIMEOUT_SECONDS,
                        TimeUnit.SECONDS);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, MqttMessage msg) {
        if (msg.decoderResult().isFailure()) {
            fail("undecodable packet: " + msg.decoderResult().cause());
            ctx.close();
            return;
        }
        switch (msg.fixedHeader().messageType()) {
            case CONNACK -> onConnAck(ctx, (MqttConnAckMessage) msg);
            case SUBACK -> onSubAck((MqttSubAckMessage) msg);
            case PUBLISH -> onPublish(ctx, (MqttPublishMessage) msg);
            case PUBACK -> completeOutgoing(MqttPackets.packetId(msg));
            case PUBREC -> {
                int id = MqttPackets.packetId(msg);
                if (publisher != null && publisher.awaits(id)) {
                    ctx.writeAndFlush(MqttPackets.reply(MqttMessageType.PUBREL, MqttQoS.AT_LEAST_ONCE, id));
                }
            }
            case PUBCOMP -> completeOutgoing(MqttPackets.packetId(msg));
            case PUBREL -> {
                int id = MqttPackets.packetId(msg);
                awaitingPubRel.remove(id);
                ctx.writeAndFlush(MqttPackets.reply(MqttMessageType.PUBCOMP, MqttQoS.AT_MOST_ONCE, id));
            }
            case DISCONNECT -> ctx.close();
            default -> {
                // PINGRESP and anything else need no answer.
            }
        }
    }

    private void onConnAck(ChannelHandlerContext ctx, MqttConnAckMessage ack) {
        MqttConnectReturnCode code = ack.variableHeader().connectReturnCode();
        if (code != MqttConnectReturnCode.CONNECTION_ACCEPTED) {
            fail("CONNACK " + code);
            ctx.close();
            return;
        }
        metrics.recordConnect((System.nanoTime() - connectStartNanos) / 1_000);
        metrics.connected.incrementAndGet();
        established = true;
        if (publisher != null) {
            MqttProperties.MqttProperty<?> receiveMaximum = ack.variableHeader()
                    .properties()
                    .getProperty(MqttProperties.MqttPropertyType.RECEIVE_MAXIMUM.value());
            if (receiveMaximum != null && receiveMaximum.value() instanceof Integer max && max > 0) {
                publisher.limitWindow(max);
            }
        }
        if (plan.subscriber() != null) {
            ctx.writeAndFlush(MqttMessageBuilders.subscribe()
                    .messageId(SUBSCRIBE_PACKET_ID)
                    .addSubscription(
                            MqttQoS.valueOf(plan.subscriber().qos()),
                            plan.subscriber().filter())
                    .build());
            return;
        }
        becomeReady();
    }

    private void onSubAck(MqttSubAckMessage ack) {
        boolean granted = !ack.payload().reasonCodes().isEmpty()
                && ack.payload().reasonCodes().get(0) < 0x80;
        if (!granted) {
            metrics.subscribeFailures.increment();
            fail("SUBACK refused, reason codes " + ack.payload().reasonCodes());
            channel.close();
            return;
        }
        becomeReady();
    }

    private void becomeReady() {
        metrics.ready.incrementAndGet();
        finished = true;
        events.ready(this);
    }

    private void fail(String reason) {
        if (!finished) {
            finished = true;
            metrics.connectFailures.increment();
            events.failed(this, plan.group() + ": " + reason);
        }
    }

    private void onPublish(ChannelHandlerContext ctx, MqttPublishMessage publish) {
        int qos = publish.fixedHeader().qosLevel().value();
        int id = publish.variableHeader().packetId();
        if (qos == 2) {
            ctx.writeAndFlush(MqttPackets.reply(MqttMessageType.PUBREC, MqttQoS.AT_MOST_ONCE, id));
            if (!awaitingPubRel.add(id)) {
                return; // a resend of a QoS 2 message this client already holds: not a new delivery
            }
        } else if (qos == 1) {
            ctx.writeAndFlush(MqttPackets.reply(MqttMessageType.PUBACK, MqttQoS.AT_MOST_ONCE, id));
        }
        metrics.received.increment();
        long now = Clock.nowMicros();
        Payload.Stamp stamp = Payload.read(publish.payload(), now);
        if (stamp == null) {
            metrics.unparsable.increment();
            return;
        }
        if (!stamp.measured()) {
            return;
        }
        SequenceTracker tracker = receivedByPublisher.computeIfAbsent(stamp.publisherId(), p -> new SequenceTracker());
        if (tracker.record(stamp.sequence())) {
            metrics.receivedMeasured.increment();
            metrics.recordDelivery(stamp.sentMicros(), now);
        } else {
            metrics.duplicates.increment();
        }
    }

    /**
     * Starts this publisher's paced sends; they stop by themselves when the gate closes.
     *
     * @param anchorNanos the grid aligned publishers share and the earliest first send (System.nanoTime scale)
     */
    public void startPublishing(long anchorNanos) {
        if (publisher != null) {
            publisher.start(channel, anchorNanos);
        }
    }

    private void completeOutgoing(int id) {
        if (publisher != null) {
            publisher.complete(id);
        }
    }

    public int inflight() {
        return publisher == null ? 0 : publisher.inflight();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent && established) {
            metrics.pings.increment();
            ctx.writeAndFlush(MqttPackets.PINGREQ);
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    /**
     * Ends the connection on purpose: DISCONNECT (for MQTT 5 with session expiry 0 when {@code endSession}, so the
     * broker drops a persistent benchmark session), then close.
     */
    public void disconnect(boolean endSession) {
        if (channel == null) {
            return;
        }
        channel.eventLoop().execute(() -> {
            closing = true;
            if (publisher != null) {
                publisher.stop();
            }
            if (!channel.isActive()) {
                return;
            }
            if (!established) {
                channel.close();
                return;
            }
            MqttProperties properties = new MqttProperties();
            if (endSession && plan.protocol() == MqttProtocol.V5 && plan.sessionExpirySeconds() > 0) {
                properties.add(new MqttProperties.IntegerProperty(
                        MqttProperties.MqttPropertyType.SESSION_EXPIRY_INTERVAL.value(), 0));
            }
            channel.writeAndFlush(MqttMessageBuilders.disconnect()
                            .properties(properties)
                            .build())
                    .addListener(ChannelFutureListener.CLOSE);
        });
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (established) {
            metrics.connected.decrementAndGet();
            if (!closing) {
                metrics.connectionsLost.increment();
            }
        }
        if (publisher != null) {
            publisher.connectionLost();
        }
        fail("connection closed before it was ready");
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(cause.getClass().getSimpleName() + ": " + cause.getMessage());
        ctx.close();
    }

    /** Called by the connector when the TCP connect itself failed. */
    void connectFailed(Throwable cause) {
        fail("connect: " + cause.getMessage());
    }
}
