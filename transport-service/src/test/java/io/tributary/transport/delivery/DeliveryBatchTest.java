package io.tributary.transport.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.mqtt.MqttEncoder;
import io.netty.handler.codec.mqtt.MqttFixedHeader;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttPublishMessage;
import io.netty.handler.codec.mqtt.MqttPublishVariableHeader;
import io.netty.handler.codec.mqtt.MqttQoS;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.tributary.kafka.tracing.HopTracing;
import io.tributary.transport.connection.ClientCapabilities;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.connection.OutboundMessage;
import io.tributary.transport.metrics.TransportMetrics;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class DeliveryBatchTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final TransportMetrics metrics = new TransportMetrics(meters);
    private final OutboundDelivery delivery = new OutboundDelivery(
            metrics, new Disconnector(metrics), new OutboundDelivery.Limits(10, 10, 1 << 20, SlowConsumerPolicy.DROP));

    private static ClientConnection mqtt3(EmbeddedChannel channel, String clientId) {
        return new ClientConnection(
                channel,
                clientId,
                1,
                MqttVersion.MQTT_3_1_1,
                true,
                60,
                0,
                new ClientCapabilities(65535, 268_435_460L, 0, true),
                10,
                null);
    }

    /** What Netty's encoder writes for the same QoS 0 PUBLISH. */
    private static byte[] encodedByNetty(String topic, byte[] payload, boolean retain) {
        EmbeddedChannel encoder = new EmbeddedChannel(MqttEncoder.INSTANCE);
        encoder.writeOutbound(new MqttPublishMessage(
                new MqttFixedHeader(MqttMessageType.PUBLISH, false, MqttQoS.AT_MOST_ONCE, retain, 0),
                new MqttPublishVariableHeader(topic, -1),
                Unpooled.wrappedBuffer(payload)));
        ByteBuf bytes = encoder.readOutbound();
        byte[] array = ByteBufUtil.getBytes(bytes);
        bytes.release();
        return array;
    }

    @Test
    void shared_frame_is_the_packet_nettys_encoder_writes() {
        byte[] small = "hello".getBytes(StandardCharsets.UTF_8);
        byte[] large = new byte[300]; // remaining length needs two bytes
        for (Object[] c : new Object[][] {{"a/b", small, false}, {"ü/ñ/€", large, true}}) {
            ByteBuf frame = SharedPublishFrame.encodeMqtt3Qos0(
                    UnpooledByteBufAllocator.DEFAULT, (String) c[0], (byte[]) c[1], (Boolean) c[2]);
            assertThat(ByteBufUtil.getBytes(frame))
                    .isEqualTo(encodedByNetty((String) c[0], (byte[]) c[1], (Boolean) c[2]));
            frame.release();
        }
    }

    @Test
    void one_task_per_event_loop_writes_every_subscriber_the_same_frame_and_releases_it() {
        EmbeddedChannel channel = new EmbeddedChannel();
        ClientConnection first = mqtt3(channel, "s1");
        ClientConnection second = mqtt3(channel, "s2");
        byte[] payload = {1, 2, 3};
        OutboundMessage message = new OutboundMessage("t/1", payload, 0, false, null);
        ByteBuf frame = SharedPublishFrame.encodeMqtt3Qos0(UnpooledByteBufAllocator.DEFAULT, "t/1", payload, false);

        DeliveryBatch batch = new DeliveryBatch(delivery);
        batch.begin(System.nanoTime());
        batch.add(first, message, frame.retainedDuplicate(), 0, 1);
        batch.add(second, message, frame.retainedDuplicate(), 0, 1);
        batch.dispatch();
        frame.release(); // the consumer thread's own reference
        assertThat(frame.refCnt()).isEqualTo(2);
        assertThat((Object) channel.readOutbound()).isNull(); // nothing before the event loop runs the task

        channel.runPendingTasks();
        ByteBuf a = channel.readOutbound();
        ByteBuf b = channel.readOutbound();
        assertThat(ByteBufUtil.getBytes(a)).isEqualTo(encodedByNetty("t/1", payload, false));
        assertThat(ByteBufUtil.getBytes(b)).isEqualTo(ByteBufUtil.getBytes(a));
        a.release();
        b.release();
        assertThat(frame.refCnt()).isZero();
        assertThat(meters.get("tributary.publishes.out")
                        .tag("qos", "0")
                        .counter()
                        .count())
                .isEqualTo(2.0);
        assertThat(meters.get("tributary.delivery.latency").timer().count()).isEqualTo(1);
    }

    @Test
    void a_delivery_to_a_closed_connection_releases_its_reference() {
        EmbeddedChannel channel = new EmbeddedChannel();
        ClientConnection closed = mqtt3(channel, "gone");
        ByteBuf frame =
                SharedPublishFrame.encodeMqtt3Qos0(UnpooledByteBufAllocator.DEFAULT, "t", new byte[] {1}, false);
        DeliveryBatch batch = new DeliveryBatch(delivery);
        batch.begin(System.nanoTime());
        batch.add(closed, new OutboundMessage("t", new byte[] {1}, 0, false, null), frame.retainedDuplicate(), -1, -1);
        frame.release();
        channel.close();
        batch.dispatch();
        channel.runPendingTasks();
        assertThat(frame.refCnt()).isZero();
        assertThat(meters.get("tributary.deliveries.dropped")
                        .tag("reason", "connection_closed")
                        .counter()
                        .count())
                .isEqualTo(1.0);
    }

    @Test
    void qos1_deliveries_of_a_batch_keep_their_order_and_packet_ids() {
        EmbeddedChannel channel = new EmbeddedChannel();
        ClientConnection c = mqtt3(channel, "q1");
        DeliveryBatch batch = new DeliveryBatch(delivery);
        batch.begin(System.nanoTime());
        for (int i = 0; i < 3; i++) {
            batch.add(c, new OutboundMessage("t/" + i, new byte[] {(byte) i}, 1, false, null), null, 0, i);
        }
        batch.dispatch();
        channel.runPendingTasks();
        for (int i = 0; i < 3; i++) {
            MqttPublishMessage m = channel.readOutbound();
            assertThat(m.variableHeader().topicName()).isEqualTo("t/" + i);
            assertThat(m.variableHeader().packetId()).isPositive();
            m.release();
        }
        assertThat(meters.get("tributary.publishes.out")
                        .tag("qos", "1")
                        .counter()
                        .count())
                .isEqualTo(3.0);
    }

    @Test
    void a_records_deliver_span_ends_once_the_event_loops_have_written_its_deliveries() {
        InMemorySpanExporter exporter = InMemorySpanExporter.create();
        HopTracing tracing = HopTracing.using(SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(exporter))
                .build());
        EmbeddedChannel channel = new EmbeddedChannel();
        ClientConnection c = mqtt3(channel, "traced");
        RecordHeaders headers = new RecordHeaders();
        headers.add(
                "traceparent",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01".getBytes(StandardCharsets.UTF_8));
        DeliveryBatch batch = new DeliveryBatch(delivery);
        batch.begin(System.nanoTime());
        batch.add(c, new OutboundMessage("t", new byte[] {1}, 1, false, null), null, 0, 1);
        batch.trace(tracing.continueTrace("deliver", SpanKind.CONSUMER, headers));
        batch.dispatch();
        assertThat(exporter.getFinishedSpanItems())
                .as("not before the event loop has written")
                .isEmpty();

        channel.runPendingTasks();
        MqttPublishMessage written = channel.readOutbound();
        written.release();
        assertThat(exporter.getFinishedSpanItems()).hasSize(1);
        assertThat(exporter.getFinishedSpanItems().get(0).getName()).isEqualTo("deliver");
        assertThat(exporter.getFinishedSpanItems().get(0).getParentSpanId()).isEqualTo("00f067aa0ba902b7");

        // A traced record without deliveries: its span ends at the dispatch.
        batch.trace(tracing.continueTrace("deliver", SpanKind.CONSUMER, headers));
        batch.dispatch();
        assertThat(exporter.getFinishedSpanItems()).hasSize(2);
        tracing.close();
    }
}
