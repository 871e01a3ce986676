package io.tributary.it.kafka;

import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import io.tributary.it.support.Clients;
import io.tributary.it.support.ExtraTransport;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.RecordTail;
import io.tributary.it.support.TributaryCluster;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A cluster in the middle of an upgrade: one transport node started with {@code TRIBUTARY_KAFKA_HEADER_FORMAT=binary}
 * writes the earlier one-byte / eight-byte headers while the shared nodes write text, and the router, the other
 * node and the subscriber's delivery read both: each message arrives with its own QoS and message expiry.
 */
@ExtendWith(LogsOnFailure.class)
class MixedHeaderFormatsTest {

    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    @Test
    void records_of_a_binary_node_and_of_a_text_node_both_route_with_their_qos_and_expiry() throws Exception {
        String prefix = "mixed/" + id("t");
        try (ExtraTransport binaryNode =
                        cluster.startTransport("binary-headers", Map.of("TRIBUTARY_KAFKA_HEADER_FORMAT", "binary"));
                RecordTail publishes = new RecordTail(cluster.kafkaBootstrapServers(), "tributary.publish")) {
            Mqtt5BlockingClient subscriber = Clients.hive5(cluster.mqttPort(1), id("mixed-sub"));
            subscriber.connect();
            Mqtt5BlockingClient oldStyle = Clients.hive5(binaryNode.mqttPort(), id("mixed-bin"));
            oldStyle.connect();
            Mqtt5BlockingClient newStyle = Clients.hive5(cluster.mqttPort(0), id("mixed-text"));
            newStyle.connect();
            try (Mqtt5BlockingClient.Mqtt5Publishes received = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
                subscriber
                        .subscribeWith()
                        .topicFilter(prefix + "/#")
                        .qos(MqttQos.EXACTLY_ONCE)
                        .send();
                oldStyle.publishWith()
                        .topic(prefix + "/binary")
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .messageExpiryInterval(600)
                        .payload("b".getBytes(StandardCharsets.UTF_8))
                        .send();
                Mqtt5Publish first = received.receive(20, TimeUnit.SECONDS).orElseThrow();
                newStyle.publishWith()
                        .topic(prefix + "/text")
                        .qos(MqttQos.AT_MOST_ONCE)
                        .messageExpiryInterval(900)
                        .payload("t".getBytes(StandardCharsets.UTF_8))
                        .send();
                Mqtt5Publish second = received.receive(20, TimeUnit.SECONDS).orElseThrow();

                assertThat(first.getTopic().toString()).isEqualTo(prefix + "/binary");
                assertThat(first.getQos()).isEqualTo(MqttQos.AT_LEAST_ONCE);
                assertThat(first.getMessageExpiryInterval().orElseThrow()).isBetween(590L, 600L);
                assertThat(second.getTopic().toString()).isEqualTo(prefix + "/text");
                assertThat(second.getQos()).isEqualTo(MqttQos.AT_MOST_ONCE);
                assertThat(second.getMessageExpiryInterval().orElseThrow()).isBetween(890L, 900L);
            } finally {
                newStyle.disconnect();
                oldStyle.disconnect();
                subscriber.disconnect();
            }
            ConsumerRecord<byte[], byte[]> binary = publishes.await(r -> key(r).equals(prefix + "/binary"));
            assertThat(binary.headers().lastHeader("mqtt.qos").value()).containsExactly(1);
            assertThat(binary.headers().lastHeader("tributary.received-at").value())
                    .hasSize(8);
            assertThat(binary.headers().lastHeader("mqtt5.message-expiry").value())
                    .containsExactly(0, 0, 2, 0x58);
            ConsumerRecord<byte[], byte[]> text = publishes.await(r -> key(r).equals(prefix + "/text"));
            assertThat(header(text, "mqtt.qos")).isEqualTo("0");
            assertThat(header(text, "mqtt.retain")).isEqualTo("false");
            assertThat(header(text, "mqtt5.message-expiry")).isEqualTo("900");
            assertThat(header(text, "tributary.received-at")).matches("[0-9]{13}");
        }
    }

    private static String key(ConsumerRecord<byte[], byte[]> r) {
        return r.key() == null ? "" : new String(r.key(), StandardCharsets.UTF_8);
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}
