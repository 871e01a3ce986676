package io.tributary.perf.client;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.handler.codec.mqtt.MqttFixedHeader;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttPublishMessage;
import io.netty.handler.codec.mqtt.MqttPublishVariableHeader;
import io.netty.handler.codec.mqtt.MqttQoS;
import io.tributary.perf.measure.Clock;
import io.tributary.perf.measure.LiveMetrics;
import io.tributary.perf.measure.Payload;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The publishing half of a client, on its channel's event loop: paced PUBLISH packets stamped for the accounting,
 * the QoS 1/2 window of unacknowledged ones, and their PUBACK / PUBCOMP latencies. Split from
 * {@link MqttLoadClient} so each half stays readable; like it, it takes no locks.
 */
final class Publisher {

    private static final int MAX_SENDS_PER_TICK = 10_000;

    private final ConnectionPlan.PublisherPlan pub;
    private final LiveMetrics metrics;
    private final PublishGate gate;
    private final Map<Integer, Long> inflightSentNanos = new HashMap<>();
    private final long[] sentPerSlot;
    private int window;
    private int nextPacketId = 1;
    private int sequence;
    private long attempts;
    private long publishStartNanos;
    private ScheduledFuture<?> publishTask;
    private Channel channel;

    Publisher(ConnectionPlan.PublisherPlan pub, LiveMetrics metrics, PublishGate gate) {
        this.pub = pub;
        this.metrics = metrics;
        this.gate = gate;
        this.sentPerSlot = new long[pub.topics().length];
        this.window = pub.maxInflight();
    }

    /** The broker's Receive Maximum (MQTT 5 CONNACK) lowers the window; it never raises it. */
    void limitWindow(int receiveMaximum) {
        window = Math.min(pub.maxInflight(), receiveMaximum);
    }

    /**
     * Starts the paced sends on {@code on}'s event loop, on the {@link SendSchedule} of this publisher's phase; they
     * stop by themselves when the gate closes.
     *
     * @param anchorNanos the run's grid for aligned publishers, and the earliest first send for all (System.nanoTime)
     */
    void start(Channel on, long anchorNanos) {
        on.eventLoop().execute(() -> {
            if (publishTask != null || !on.isActive()) {
                return;
            }
            channel = on;
            long now = System.nanoTime();
            SendSchedule schedule = SendSchedule.of(
                    pub.rate(),
                    pub.phase(),
                    anchorNanos,
                    now,
                    ThreadLocalRandom.current().nextDouble());
            publishStartNanos = schedule.firstSendNanos();
            // Fixed rate: Netty moves each deadline on by the period, so aligned publishers stay on the shared grid.
            publishTask = on.eventLoop()
                    .scheduleAtFixedRate(
                            this::publishTick,
                            Math.max(0, schedule.firstSendNanos() - now),
                            schedule.periodNanos(),
                            TimeUnit.NANOSECONDS);
        });
    }

    void stop() {
        if (publishTask != null) {
            publishTask.cancel(false);
        }
    }

    private void publishTick() {
        PublishGate.State state = gate.state();
        if (state == PublishGate.State.CLOSED || !channel.isActive()) {
            publishTask.cancel(false);
            return;
        }
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
            sendOne(state == PublishGate.State.MEASURE);
            wrote = true;
        }
        if (wrote) {
            channel.flush();
        }
    }

    private void sendOne(boolean measured) {
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

    /** Whether {@code id} is a QoS 2 publish of ours still waiting (a PUBREC for it gets a PUBREL). */
    boolean awaits(int id) {
        return inflightSentNanos.containsKey(id);
    }

    /** PUBACK (QoS 1) or PUBCOMP (QoS 2) for {@code id}: the publish is done, its latency recorded. */
    void complete(int id) {
        Long sentAt = inflightSentNanos.remove(id);
        if (sentAt != null) {
            metrics.inflight.decrementAndGet();
            metrics.acked.increment();
            metrics.recordAck((System.nanoTime() - sentAt) / 1_000);
        }
    }

    /** The connection is gone: what was in flight will never be acknowledged. */
    void connectionLost() {
        metrics.inflight.addAndGet(-inflightSentNanos.size());
        inflightSentNanos.clear();
    }

    int inflight() {
        return inflightSentNanos.size();
    }

    long[] sentPerSlot() {
        return sentPerSlot;
    }
}
