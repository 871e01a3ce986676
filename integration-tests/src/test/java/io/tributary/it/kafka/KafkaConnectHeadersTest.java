package io.tributary.it.kafka;

import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5PayloadFormatIndicator;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.RecordTail;
import io.tributary.it.support.TributaryCluster;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.storage.SimpleHeaderConverter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The headers of a record on {@code tributary.publish}, written by a transport node for an MQTT 5 PUBLISH and read
 * with a plain Kafka consumer, run through Kafka Connect's default header converter ({@code SimpleHeaderConverter},
 * what a Connect worker uses unless told otherwise): every metadata header becomes a typed value (numbers INT8 ...
 * INT64, the retain flag BOOLEAN, names STRING), none a string of control characters, and converting each back
 * gives the bytes Tributary wrote, so a record a Connect pipeline copies on is still Tributary's format. The
 * correlation data, opaque bytes in MQTT, is copied raw. This checks the converter, not a running Connect worker.
 */
@ExtendWith(LogsOnFailure.class)
class KafkaConnectHeadersTest {

    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    @Test
    void every_metadata_header_of_a_publish_record_converts_to_a_typed_connect_value() throws Exception {
        String topic = "connect-headers/" + id("t");
        String clientId = id("connect-pub");
        byte[] correlation = {0, 1, (byte) 0xfe, (byte) 0xff};
        long before = System.currentTimeMillis();
        ConsumerRecord<byte[], byte[]> record;
        try (RecordTail publishes = new RecordTail(cluster.kafkaBootstrapServers(), "tributary.publish")) {
            Mqtt5BlockingClient publisher = Clients.hive5(cluster.mqttPort(0), clientId);
            publisher.connect();
            try {
                publisher
                        .publishWith()
                        .topic(topic)
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .payload("21.5".getBytes(StandardCharsets.UTF_8))
                        .payloadFormatIndicator(Mqtt5PayloadFormatIndicator.UTF_8)
                        .contentType("text/plain")
                        .responseTopic("reply/" + topic)
                        .correlationData(correlation)
                        .messageExpiryInterval(3600)
                        .userProperties()
                        .add("site", "plant-7")
                        .applyUserProperties()
                        .send();
            } finally {
                publisher.disconnect();
            }
            record = publishes.await(r -> r.key() != null && new String(r.key(), StandardCharsets.UTF_8).equals(topic));
        }
        long after = System.currentTimeMillis();

        SimpleHeaderConverter converter = new SimpleHeaderConverter();
        converter.configure(Map.of());
        Map<String, SchemaAndValue> converted = new LinkedHashMap<>();
        for (Header h : record.headers()) {
            if (!h.key().equals("mqtt5.correlation-data")) {
                converted.put(h.key(), converter.toConnectHeader(record.topic(), h.key(), h.value()));
            }
        }
        assertThat(converted.keySet())
                .containsExactly(
                        "mqtt.qos",
                        "mqtt.retain",
                        "mqtt.client-id",
                        "mqtt.protocol-version",
                        "tributary.node-id",
                        "tributary.received-at",
                        "mqtt5.payload-format",
                        "mqtt5.content-type",
                        "mqtt5.response-topic",
                        "mqtt5.message-expiry",
                        "mqtt5.user.site");

        assertNumber(converted.get("mqtt.qos"), 1);
        assertThat(converted.get("mqtt.retain").schema().type()).isEqualTo(Schema.Type.BOOLEAN);
        assertThat(converted.get("mqtt.retain").value()).isEqualTo(false);
        assertString(converted.get("mqtt.client-id"), clientId);
        assertNumber(converted.get("mqtt.protocol-version"), 5);
        assertThat(converted.get("tributary.node-id").schema().type()).isEqualTo(Schema.Type.STRING);
        assertThat((String) converted.get("tributary.node-id").value())
                .isNotBlank()
                .doesNotContainPattern("\\p{Cntrl}");
        SchemaAndValue receivedAt = converted.get("tributary.received-at");
        assertThat(receivedAt.schema().type()).isEqualTo(Schema.Type.INT64);
        assertThat((Long) receivedAt.value()).as("epoch millis of the publish").isBetween(before - 5_000, after);
        assertNumber(converted.get("mqtt5.payload-format"), 1);
        assertString(converted.get("mqtt5.content-type"), "text/plain");
        assertString(converted.get("mqtt5.response-topic"), "reply/" + topic);
        assertNumber(converted.get("mqtt5.message-expiry"), 3600);
        assertString(converted.get("mqtt5.user.site"), "plant-7");
        assertThat(record.headers().lastHeader("mqtt5.correlation-data").value())
                .as("opaque bytes, raw")
                .isEqualTo(correlation);

        // What a Connect pipeline writes back (a source or MirrorMaker copying the record on) is the same bytes.
        for (Map.Entry<String, SchemaAndValue> c : converted.entrySet()) {
            assertThat(converter.fromConnectHeader(
                            record.topic(),
                            c.getKey(),
                            c.getValue().schema(),
                            c.getValue().value()))
                    .as("%s converted back", c.getKey())
                    .isEqualTo(record.headers().lastHeader(c.getKey()).value());
        }
        converter.close();
    }

    private static void assertNumber(SchemaAndValue converted, long expected) {
        assertThat(converted.schema().type())
                .isIn(Schema.Type.INT8, Schema.Type.INT16, Schema.Type.INT32, Schema.Type.INT64);
        assertThat(((Number) converted.value()).longValue()).isEqualTo(expected);
    }

    private static void assertString(SchemaAndValue converted, String expected) {
        assertThat(converted.schema().type()).isEqualTo(Schema.Type.STRING);
        assertThat(converted.value()).isEqualTo(expected);
    }
}
