package io.tributary.transport.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttPublishMessage;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.tributary.transport.connection.ClientCapabilities;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.connection.OutboundMessage;
import io.tributary.transport.delivery.OutboundDelivery;
import io.tributary.transport.delivery.SlowConsumerPolicy;
import io.tributary.transport.metrics.TransportMetrics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A replay goes out through the subscriber's in-flight window, and live messages wait behind it, in order. */
class ReplayPacingTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final TransportMetrics metrics = new TransportMetrics(meters);
    // In-flight window 2, at most 1 waiting behind it: a replay of 5 handed over at once would lose 2.
    private final OutboundDelivery delivery = new OutboundDelivery(
            metrics, new Disconnector(metrics), new OutboundDelivery.Limits(2, 1, 1 << 20, SlowConsumerPolicy.DROP));
    private final Replays replays = new Replays(
            "n",
            new io.tributary.common.kafka.KafkaClients(
                    "127.0.0.1:1", io.tributary.common.kafka.KafkaClientProperties.none()),
            new ReplayProperties(true, Duration.ofHours(1), 100, 1, Duration.ofSeconds(5)),
            3,
            delivery,
            new Disconnector(metrics),
            metrics);

    @AfterEach
    void close() {
        replays.close();
    }

    private static OutboundMessage message(String payload) {
        return new OutboundMessage("r/t", payload.getBytes(StandardCharsets.UTF_8), 1, false, new MqttProperties());
    }

    private static List<String> read(EmbeddedChannel channel, List<Integer> ids) {
        List<String> out = new ArrayList<>();
        MqttPublishMessage p;
        while ((p = channel.readOutbound()) != null) {
            out.add(p.payload().toString(java.nio.charset.StandardCharsets.UTF_8));
            ids.add(p.variableHeader().packetId());
            p.release();
        }
        return out;
    }

    @Test
    void history_and_held_live_messages_go_out_as_acknowledgements_free_slots() {
        EmbeddedChannel channel = new EmbeddedChannel();
        ClientConnection c = new ClientConnection(
                channel,
                "sub",
                1,
                MqttVersion.MQTT_5,
                true,
                60,
                0,
                new ClientCapabilities(65535, 268_435_460L, 0, true),
                10,
                null);
        ReplaySeam seam = new ReplaySeam(new LinkedHashSet<>(List.of("r/t")));
        c.replaysCreated().add(seam);
        // Live delivery while the history is read: held by the gate.
        assertThat(replays.intercept(c, message("live-20"), 0, 20)).isTrue();
        List<OutboundMessage> history = new ArrayList<>();
        for (int i = 15; i < 20; i++) {
            history.add(message("hist-" + i));
        }
        seam.historyRead(history, Map.of(0, 20L));
        replays.pump(c);

        List<Integer> ids = new ArrayList<>();
        List<String> sent = new ArrayList<>(read(channel, ids));
        assertThat(sent).as("only the window").containsExactly("hist-15", "hist-16");
        while (sent.size() < 6) {
            int before = sent.size();
            delivery.onPubAck(c, ids.remove(0));
            sent.addAll(read(channel, ids));
            assertThat(sent.size()).as("an acknowledgement frees one slot").isEqualTo(before + 1);
        }
        assertThat(sent).containsExactly("hist-15", "hist-16", "hist-17", "hist-18", "hist-19", "live-20");
        io.micrometer.core.instrument.Counter dropped = meters.find("tributary.deliveries.dropped")
                .tag("reason", "queue_full")
                .counter();
        assertThat(dropped == null ? 0 : dropped.count()).isZero();
        // Done: live traffic passes straight to delivery, a late copy of a replayed message does not.
        assertThat(replays.intercept(c, message("live-21"), 0, 21)).isFalse();
        assertThat(replays.intercept(c, message("hist-19"), 0, 19)).isTrue();
    }
}
