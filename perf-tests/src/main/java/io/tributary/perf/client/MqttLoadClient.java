package io.tributary.perf.client;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.mqtt.MqttConnAckMessage;
import io.netty.handler.codec.mqtt.MqttConnectReturnCode;
import io.netty.handler.codec.mqtt.MqttFixedHeader;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageBuilders;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttPublishMessage;
import io.netty.handler.codec.mqtt.MqttPublishVariableHeader;
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
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One simulated MQTT client, living entirely on its channel's event loop: CONNECT, SUBSCRIBE or paced PUBLISH with
 * the QoS 1/2 handshakes on both sides, PINGREQ when idle, and the per-publisher sequence tracking loss and
 * duplicates are computed from. No locks: everything here runs on one thread; the orchestration reads the
 * counters only after the loops have stopped.
 */
public final class MqttLoadClient extends SimpleChannelInboundHandler<MqttMessage> {

    private static final int SUBSCRIBE_PACKET_ID = 1;
    private static final int MAX_SENDS_PER_TICK = 10_000;
    /** A broker that has not answered CONNECT (and SUBSCRIBE) by then counts as a failed connection. */
    static final int READY_TIMEOUT_SECONDS = 30;

    private final ConnectionPlan plan;
    private final LiveMetrics metrics;
    private final PublishGate gate;
    private final ClientEvents events;
    private final long connectStartNanos;

    // Subscriber side.
    private final Map<Integer, SequenceTracker> receivedByPublisher = new HashMap<>();
    private final Set<Integer> awaitingPubRel = new HashSet<>();

    // Publisher side.
    private final Map<Integer, Long> inflightSentNanos = new HashMap<>();
    private long[] sentPerSlot = new long[0];
    private int window;
    private int nextPacketId = 1;
    private int sequence;
    private long attempts;
    private long publishStartNanos;
    private ScheduledFuture<?> publishTask;

    private Channel channel;
    private boolean established;
    private boolean finished;
    private boolean closing;

    public MqttLoadClient(
            ConnectionPlan plan, LiveMetrics metrics, PublishGate gate, ClientEvents events, long connectStartNanos) {
        this.plan = plan;
        this.metrics = metrics;
        this.gate = gate;
        this.events = events;
        this.connectStartNanos = connectStartNanos;
        if (plan.isPublisher()) {
            sentPerSlot = new long[plan.publisher().topics().length];
        }
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

    public long[] sentPerSlot() {
        return sentPerSlot;
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
                if (inflightSentNanos.containsKey(id)) {
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
        if (plan.isPublisher()) {
            window = plan.publisher().maxInflight();
            MqttProperties.MqttProperty<?> receiveMaximum = ack.variableHeader()
                    .properties()
                    .getProperty(MqttProperties.MqttPropertyType.RECEIVE_MAXIMUM.value());
            if (receiveMaximum != null && receiveMaximum.value() instanceof Integer max && max > 0) {
                window = Math.min(window, max);
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
            metrics.recordEndToEnd(now - stamp.sentMicros());
        } else {
            metrics.duplicates.increment();
        }
    }

    /** Starts this publisher's paced sends; they stop by themselves when the gate closes. */
    public void startPublishing() {
        channel.eventLoop().execute(() -> {
            if (publishTask != null || !plan.isPublisher() || !channel.isActive()) {
                return;
            }
            double rate = plan.publisher().rate();
            long periodNanos = Math.max(10_000_000L, (long) (1e9 / rate));
            // A random phase spreads publishers that connected in the same millisecond over the period.
            long initialDelay = (long) (Math.random() * periodNanos);
            publishStartNanos = System.nanoTime() + initialDelay;
            publishTask = channel.eventLoop()
                    .scheduleAtFixedRate(this::publishTick, initialDelay, periodNanos, TimeUnit.NANOSECONDS);
        });
    }

    private void publishTick() {
        PublishGate.State state = gate.state();
        if (state == PublishGate.State.CLOSED || !channel.isActive()) {
            publishTask.cancel(false);
            return;
        }
        ConnectionPlan.PublisherPlan pub = plan.publisher();
        long due = (long) ((System.nanoTime() - publishStartNanos) / 1e9 * pub.rate()) + 1 - attempts;
        boolean wrote = false;
        for (long i = 0; i < Math.min(due, MAX_SENDS_PER_TICK); i++) {
            attempts++;
            if (!channel.isWritable()) {
                metrics.skippedNotWritable.increment();
                continue;
            }
            if (pub.qos() > 0 && inflightSentNanos.size() >= window) {
                metrics.skippedWindowFull.increment();
                continue;
            }
            sendOne(pub, state == PublishGate.State.MEASURE);
            wrote = true;
        }
        if (wrote) {
            channel.flush();
        }
    }

    private void sendOne(ConnectionPlan.PublisherPlan pub, boolean measured) {
        int slot = (int) (sequence % pub.topics().length);
        ByteBuf payload = channel.alloc().buffer(pub.payloadSize());
        Payload.write(payload, pub.payloadSize(), pub.publisherId(), sequence, measured, Clock.nowMicros());
        int id = 0;
        if (pub.qos() > 0) {
            id = nextFreePacketId();
            inflightSentNanos.put(id, System.nanoTime());
            metrics.inflight.incrementAndGet();
        }
        // Built directly: MqttMessageBuilders.publish() copies the payload into a new heap buffer.
        MqttPublishMessage message = new MqttPublishMessage(
                new MqttFixedHeader(MqttMessageType.PUBLISH, false, MqttQoS.valueOf(pub.qos()), pub.retain(), 0),
                new MqttPublishVariableHeader(pub.topics()[slot], id),
                payload);
        channel.write(message, channel.voidPromise());
        sequence++;
        metrics.published.increment();
        if (measured) {
            sentPerSlot[slot]++;
            metrics.publishedMeasured.increment();
        }
    }

    private int nextFreePacketId() {
        while (true) {
            int id = nextPacketId;
            nextPacketId = nextPacketId == 65_535 ? 1 : nextPacketId + 1;
            if (!inflightSentNanos.containsKey(id)) {
                return id;
            }
        }
    }

    private void completeOutgoing(int id) {
        Long sentAt = inflightSentNanos.remove(id);
        if (sentAt != null) {
            metrics.inflight.decrementAndGet();
            metrics.acked.increment();
            metrics.recordAck((System.nanoTime() - sentAt) / 1_000);
        }
    }

    public int inflight() {
        return inflightSentNanos.size();
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
            if (publishTask != null) {
                publishTask.cancel(false);
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
        metrics.inflight.addAndGet(-inflightSentNanos.size());
        inflightSentNanos.clear();
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
