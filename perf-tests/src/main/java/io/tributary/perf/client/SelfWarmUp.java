package io.tributary.perf.client;

import io.netty.channel.embedded.EmbeddedChannel;
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
import io.netty.util.ReferenceCountUtil;
import io.tributary.perf.measure.LiveMetrics;
import io.tributary.perf.scenario.Endpoint;
import io.tributary.perf.scenario.MqttProtocol;
import io.tributary.perf.scenario.PublishPhase;
import java.util.concurrent.TimeUnit;

/**
 * Warms the generator's own message path before a run measured from its first message. A publishing and a
 * subscribing {@link MqttLoadClient}, with the codecs they use, run on two in-memory channels joined back to back and
 * pass PUBLISH packets from one to the other: paced sends, encoding, decoding, the delivery accounting and the
 * latency recorders all run until the JIT has compiled them. Nothing reaches the network or the broker and only
 * throwaway metrics are touched. Without it, a cold generator shows a first-second stall of its own, hundreds of
 * milliseconds on a loaded 2-core machine, whichever broker it measures.
 */
public final class SelfWarmUp {

    private static final long TICK_MILLIS = 10;
    private static final int MAX_TICKS = 100_000;

    private SelfWarmUp() {}

    /** Passes {@code messages} PUBLISH packets through the client code; returns how many were delivered. */
    public static long run(int messages) {
        LiveMetrics scratch = new LiveMetrics();
        PublishGate gate = new PublishGate();
        gate.set(PublishGate.State.MEASURE);
        ClientEvents quiet = new ClientEvents() {
            @Override
            public void ready(MqttLoadClient client) {}

            @Override
            public void failed(MqttLoadClient client, String reason) {}
        };
        Endpoint nowhere = new Endpoint("127.0.0.1", 1, false);
        MqttLoadClient subscriber = new MqttLoadClient(
                new ConnectionPlan(
                        "self-warm-up",
                        "self-warm-up-sub",
                        nowhere,
                        MqttProtocol.V3_1_1,
                        true,
                        0,
                        0,
                        new ConnectionPlan.SubscriberPlan(0, "warm/#", 0),
                        null),
                scratch,
                gate,
                quiet,
                System.nanoTime());
        MqttLoadClient publisher = new MqttLoadClient(
                new ConnectionPlan(
                        "self-warm-up",
                        "self-warm-up-pub",
                        nowhere,
                        MqttProtocol.V3_1_1,
                        true,
                        0,
                        0,
                        null,
                        new ConnectionPlan.PublisherPlan(
                                0, new String[] {"warm/0"}, 66, 1e6, PublishPhase.ALIGNED, 0, 64, false)),
                scratch,
                gate,
                quiet,
                System.nanoTime());
        EmbeddedChannel in = new EmbeddedChannel(new MqttDecoder(), MqttEncoder.INSTANCE, subscriber);
        EmbeddedChannel out = new EmbeddedChannel(new MqttDecoder(), MqttEncoder.INSTANCE, publisher);
        try {
            in.writeInbound(connAck());
            in.writeInbound(subAck());
            out.writeInbound(connAck());
            releaseOutbound(in);
            releaseOutbound(out);
            publisher.startPublishing(System.nanoTime());
            out.runPendingTasks();
            for (int tick = 0; tick < MAX_TICKS && scratch.receivedMeasured.sum() < messages; tick++) {
                out.advanceTimeBy(TICK_MILLIS, TimeUnit.MILLISECONDS);
                out.runScheduledPendingTasks();
                for (Object packet = out.readOutbound(); packet != null; packet = out.readOutbound()) {
                    in.writeInbound(packet);
                }
                releaseOutbound(in);
            }
            return scratch.receivedMeasured.sum();
        } finally {
            gate.set(PublishGate.State.CLOSED);
            out.finishAndReleaseAll();
            in.finishAndReleaseAll();
        }
    }

    private static MqttMessage connAck() {
        return MqttMessageBuilders.connAck()
                .returnCode(MqttConnectReturnCode.CONNECTION_ACCEPTED)
                .build();
    }

    private static MqttSubAckMessage subAck() {
        return new MqttSubAckMessage(
                new MqttFixedHeader(MqttMessageType.SUBACK, false, MqttQoS.AT_MOST_ONCE, false, 0),
                MqttMessageIdVariableHeader.from(1),
                new MqttSubAckPayload(0));
    }

    private static void releaseOutbound(EmbeddedChannel channel) {
        for (Object o = channel.readOutbound(); o != null; o = channel.readOutbound()) {
            ReferenceCountUtil.release(o);
        }
    }
}
