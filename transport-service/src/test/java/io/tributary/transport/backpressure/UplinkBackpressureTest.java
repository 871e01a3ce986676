package io.tributary.transport.backpressure;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageBuilders;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttQoS;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.tributary.transport.connection.ClientCapabilities;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.publish.InboundPublishHandler;
import io.tributary.transport.publish.InboundPublishServices;
import io.tributary.transport.publish.PublishRecords;
import io.tributary.transport.uplink.KafkaAvailability;
import io.tributary.transport.uplink.PublishProducer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The inbound PUBLISH path with a Kafka that answers only when told (Kafka's own MockProducer, autoComplete off):
 * the client's reads stop once its publishes waiting for Kafka pass the byte limit, and resume when Kafka has
 * acknowledged enough of them; the PUBACKs still go out in order.
 */
class UplinkBackpressureTest {

    private static final int PAYLOAD = 1_000;
    /** What one of the test's publishes costs, as the handler accounts it. */
    private static final long RECORD = UplinkBudget.sizeOf(PublishRecords.toRecord(
            "t/a", new byte[PAYLOAD], 1, false, "c", MqttVersion.MQTT_3_1_1, "node-t", null, 0L));
    /** Three publishes fit, the fourth crosses the limit; reading resumes at 1.75 records. */
    private static final long LIMIT = 3 * RECORD + RECORD / 2;

    private final MockProducer<byte[], byte[]> kafka =
            new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer());
    private final Admin admin = Admin.create(java.util.Map.of("bootstrap.servers", "127.0.0.1:1"));
    private final KafkaAvailability availability = new KafkaAvailability(admin);
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    @AfterEach
    void tearDown() {
        availability.close();
        admin.close(java.time.Duration.ZERO);
    }

    private EmbeddedChannel channel(UplinkBudget budget) {
        TransportMetrics metrics = new TransportMetrics(meters);
        InboundPublishHandler handler = new InboundPublishHandler(InboundPublishServices.of(
                "node-t",
                new PublishProducer(kafka, metrics, availability),
                new Disconnector(metrics),
                metrics,
                100,
                budget));
        EmbeddedChannel channel = new EmbeddedChannel(handler);
        channel.attr(ClientConnection.KEY)
                .set(new ClientConnection(
                        channel, "c", 1, MqttVersion.MQTT_3_1_1, true, 60, 0, ClientCapabilities.DEFAULTS, 0, null));
        return channel;
    }

    private static Object publish(int qos, int packetId) {
        return MqttMessageBuilders.publish()
                .topicName("t/a")
                .qos(MqttQoS.valueOf(qos))
                .messageId(packetId)
                .properties(MqttProperties.NO_PROPERTIES)
                .payload(Unpooled.wrappedBuffer(new byte[PAYLOAD]))
                .build();
    }

    @Test
    void reads_stop_above_the_connection_limit_and_resume_once_kafka_acknowledged_half() {
        EmbeddedChannel channel = channel(new UplinkBudget(LIMIT, 1L << 30, new TransportMetrics(meters)));
        for (int id = 1; id <= 3; id++) {
            channel.writeInbound(publish(1, id));
            assertThat(channel.config().isAutoRead()).as("after publish %d", id).isTrue();
        }
        channel.writeInbound(publish(1, 4));
        assertThat(channel.config().isAutoRead()).as("4 records wait for Kafka").isFalse();

        assertThat(kafka.completeNext()).isTrue();
        assertThat(kafka.completeNext()).isTrue();
        channel.runPendingTasks();
        assertThat(channel.config().isAutoRead())
                .as("2 still wait: above half the limit")
                .isFalse();
        assertThat(kafka.completeNext()).isTrue();
        channel.runPendingTasks();
        assertThat(channel.config().isAutoRead())
                .as("1 waits: below half the limit")
                .isTrue();

        MqttMessage ack = channel.readOutbound();
        assertThat(ack.fixedHeader().messageType()).isEqualTo(MqttMessageType.PUBACK);
        assertThat(ack.toString()).contains("messageId=1");
        assertThat(channel.<Object>readOutbound().toString()).contains("messageId=2");
        assertThat(meters.get("tributary.reads.paused")
                        .tag("reason", "uplink_connection")
                        .counter()
                        .count())
                .isEqualTo(1.0);
    }

    @Test
    void qos0_publishes_count_too_and_a_failed_send_frees_its_bytes() {
        EmbeddedChannel channel = channel(new UplinkBudget(LIMIT, 1L << 30, new TransportMetrics(meters)));
        for (int i = 0; i < 4; i++) {
            channel.writeInbound(publish(0, 0));
        }
        assertThat(channel.config().isAutoRead()).isFalse();
        for (int i = 0; i < 4; i++) {
            assertThat(kafka.errorNext(new org.apache.kafka.common.errors.TimeoutException("down")))
                    .isTrue();
        }
        channel.runPendingTasks();
        assertThat(channel.config().isAutoRead()).isTrue();
        assertThat(ClientConnection.of(channel).uplinkAccount().pending()).isZero();
    }

    @Test
    void node_limit_stops_reading_from_a_second_publisher() {
        UplinkBudget budget = new UplinkBudget(1L << 30, LIMIT, new TransportMetrics(meters));
        EmbeddedChannel first = channel(budget);
        EmbeddedChannel second = channel(budget);
        first.writeInbound(publish(1, 1));
        first.writeInbound(publish(1, 2));
        second.writeInbound(publish(1, 1));
        assertThat(second.config().isAutoRead()).isTrue();
        second.writeInbound(publish(1, 2));
        assertThat(second.config().isAutoRead()).as("the node holds 4 records").isFalse();
        assertThat(first.config().isAutoRead())
                .as("first has not published since")
                .isTrue();

        kafka.completeNext();
        kafka.completeNext();
        second.runPendingTasks();
        assertThat(second.config().isAutoRead())
                .as("2 records: above half the node limit")
                .isFalse();
        kafka.completeNext();
        second.runPendingTasks();
        assertThat(second.config().isAutoRead()).isTrue();
    }
}
