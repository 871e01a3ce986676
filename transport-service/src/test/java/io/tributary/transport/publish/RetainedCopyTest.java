package io.tributary.transport.publish;

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
import io.tributary.common.kafka.TopicNames;
import io.tributary.transport.backpressure.UplinkBudget;
import io.tributary.transport.connection.ClientCapabilities;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.uplink.KafkaAvailability;
import io.tributary.transport.uplink.PublishProducer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A retained PUBLISH is written twice, to the publish topic and (same key, payload, headers) to the retained topic,
 * and its PUBACK waits for Kafka's answer on both; other publishes are written once. Kafka's own MockProducer holds
 * the acknowledgements back so the order can be observed.
 */
class RetainedCopyTest {

    private MockProducer<byte[], byte[]> kafka;
    private Admin admin;
    private KafkaAvailability availability;
    private InboundPublishHandler handler;

    @BeforeEach
    void setUp() {
        kafka = new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer());
        admin = Admin.create(Map.of("bootstrap.servers", "127.0.0.1:1"));
        availability = new KafkaAvailability(admin);
        TransportMetrics metrics = new TransportMetrics(new SimpleMeterRegistry());
        handler = new InboundPublishHandler(InboundPublishServices.of(
                "node-t",
                new PublishProducer(kafka, metrics, availability),
                new Disconnector(metrics),
                metrics,
                100,
                new UplinkBudget(1 << 20, 16 << 20, metrics)));
    }

    @AfterEach
    void tearDown() {
        availability.close();
        admin.close(Duration.ZERO);
    }

    private EmbeddedChannel channel() {
        EmbeddedChannel channel = new EmbeddedChannel(handler);
        channel.attr(ClientConnection.KEY)
                .set(new ClientConnection(
                        channel,
                        "c",
                        1,
                        MqttVersion.MQTT_5,
                        true,
                        60,
                        0,
                        new ClientCapabilities(10, 268_435_460L, 0, true),
                        10,
                        null));
        return channel;
    }

    private static io.netty.handler.codec.mqtt.MqttPublishMessage publish(String topic, boolean retain, String body) {
        return MqttMessageBuilders.publish()
                .topicName(topic)
                .qos(MqttQoS.AT_LEAST_ONCE)
                .retained(retain)
                .messageId(7)
                .properties(new MqttProperties())
                .payload(Unpooled.wrappedBuffer(body.getBytes(StandardCharsets.UTF_8)))
                .build();
    }

    @Test
    void a_retained_publish_is_acknowledged_only_after_both_records_are_stored() {
        EmbeddedChannel channel = channel();
        channel.writeInbound(publish("meters/1/config", true, "on"));

        List<ProducerRecord<byte[], byte[]>> sent = kafka.history();
        assertThat(sent).extracting(ProducerRecord::topic).containsExactly(TopicNames.PUBLISH, TopicNames.RETAINED);
        ProducerRecord<byte[], byte[]> record = sent.get(0);
        ProducerRecord<byte[], byte[]> copy = sent.get(1);
        assertThat(copy.key()).isEqualTo(record.key()).isEqualTo("meters/1/config".getBytes(StandardCharsets.UTF_8));
        assertThat(copy.value()).isEqualTo(record.value());
        assertThat(copy.headers().toArray()).containsExactly(record.headers().toArray());

        assertThat(kafka.completeNext()).isTrue(); // the publish record
        channel.runPendingTasks();
        assertThat((Object) channel.readOutbound())
                .as("no PUBACK before the retained copy is stored")
                .isNull();

        assertThat(kafka.completeNext()).isTrue(); // the retained copy
        channel.runPendingTasks();
        MqttMessage ack = channel.readOutbound();
        assertThat(ack).isNotNull();
        assertThat(ack.fixedHeader().messageType()).isEqualTo(MqttMessageType.PUBACK);
    }

    @Test
    void a_retained_publish_whose_copy_fails_is_not_acknowledged() {
        EmbeddedChannel channel = channel();
        channel.writeInbound(publish("meters/2/config", true, "on"));
        assertThat(kafka.completeNext()).isTrue();
        assertThat(kafka.errorNext(new org.apache.kafka.common.errors.TimeoutException("not stored")))
                .isTrue();
        channel.runPendingTasks();
        // Kafka refused part of it: the connection is closed unacknowledged, so the client sends it again.
        MqttMessage m = channel.readOutbound();
        assertThat(m == null || m.fixedHeader().messageType() != MqttMessageType.PUBACK)
                .as("no PUBACK: %s", m)
                .isTrue();
    }

    @Test
    void a_publish_without_retain_never_reaches_the_retained_topic() {
        EmbeddedChannel channel = channel();
        channel.writeInbound(publish("meters/3/reading", false, "42"));
        assertThat(kafka.history()).extracting(ProducerRecord::topic).containsExactly(TopicNames.PUBLISH);
        assertThat(kafka.completeNext()).isTrue();
        channel.runPendingTasks();
        MqttMessage ack = channel.readOutbound();
        assertThat(ack.fixedHeader().messageType()).isEqualTo(MqttMessageType.PUBACK);
    }
}
