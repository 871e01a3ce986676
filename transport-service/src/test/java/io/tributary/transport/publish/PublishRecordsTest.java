package io.tributary.transport.publish;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.kafka.TopicNames;
import io.tributary.transport.connection.WillMessage;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class PublishRecordsTest {

    @Test
    void record_keeps_payload_untouched_and_metadata_in_headers() {
        byte[] payload = {0, 1, 2, (byte) 0xFF};
        ProducerRecord<byte[], byte[]> r = PublishRecords.toRecord(
                "meters/1", payload, 1, true, "dev-1", MqttVersion.MQTT_3_1_1, "node-a", null, 1000L);
        assertThat(r.topic()).isEqualTo(TopicNames.PUBLISH);
        assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo("meters/1");
        assertThat(r.value()).isSameAs(payload);
        assertThat(PublishRecords.qosOf(r.headers())).isEqualTo(1);
        assertThat(RecordHeaders.readFlag(r.headers(), RecordHeaders.RETAIN)).isTrue();
        assertThat(RecordHeaders.readString(r.headers(), RecordHeaders.CLIENT_ID))
                .isEqualTo("dev-1");
        assertThat(RecordHeaders.readString(r.headers(), RecordHeaders.NODE_ID)).isEqualTo("node-a");
    }

    @Test
    void mqtt5_properties_round_trip_with_user_property_order() {
        MqttProperties in = new MqttProperties();
        in.add(new MqttProperties.IntegerProperty(MqttProperties.PAYLOAD_FORMAT_INDICATOR, 1));
        in.add(new MqttProperties.StringProperty(MqttProperties.CONTENT_TYPE, "application/json"));
        in.add(new MqttProperties.StringProperty(MqttProperties.RESPONSE_TOPIC, "reply/1"));
        in.add(new MqttProperties.BinaryProperty(MqttProperties.CORRELATION_DATA, new byte[] {7, 8}));
        in.add(new MqttProperties.UserProperty("z", "1"));
        in.add(new MqttProperties.UserProperty("a", "2"));
        in.add(new MqttProperties.UserProperty("z", "3"));
        ProducerRecord<byte[], byte[]> r =
                PublishRecords.toRecord("t", new byte[0], 0, false, "c", MqttVersion.MQTT_5, "n", in, 1000L);

        MqttProperties out = PublishRecords.deliveryProperties(r.headers(), 1000L);
        assertThat(out.getProperty(MqttProperties.PAYLOAD_FORMAT_INDICATOR).value())
                .isEqualTo(1);
        assertThat(out.getProperty(MqttProperties.CONTENT_TYPE).value()).isEqualTo("application/json");
        assertThat(out.getProperty(MqttProperties.RESPONSE_TOPIC).value()).isEqualTo("reply/1");
        assertThat((byte[]) out.getProperty(MqttProperties.CORRELATION_DATA).value())
                .containsExactly(7, 8);
        List<String> users = out.getProperties(MqttProperties.USER_PROPERTY).stream()
                .map(p -> ((MqttProperties.UserProperty) p).value().key + "="
                        + ((MqttProperties.UserProperty) p).value().value)
                .toList();
        assertThat(users).containsExactly("z=1", "a=2", "z=3");
    }

    /**
     * A record from another Kafka producer was never checked as a PUBLISH: what an MQTT 5 client would take for a
     * protocol error is left out of the delivery, the rest delivered as it came.
     */
    @Test
    void headers_of_another_producer_that_no_client_would_take_are_left_out_of_the_delivery() {
        org.apache.kafka.common.header.internals.RecordHeaders headers =
                new org.apache.kafka.common.header.internals.RecordHeaders();
        headers.add(RecordHeaders.PAYLOAD_FORMAT, "7".getBytes(StandardCharsets.UTF_8));
        headers.add(RecordHeaders.RESPONSE_TOPIC, "replies/#".getBytes(StandardCharsets.UTF_8));
        headers.add(RecordHeaders.USER_PROPERTY_PREFIX + "z", "1".getBytes(StandardCharsets.UTF_8));
        headers.add(RecordHeaders.USER_PROPERTY_PREFIX + "bad", "a\0b".getBytes(StandardCharsets.UTF_8));
        headers.add(RecordHeaders.USER_PROPERTY_PREFIX + "a", "2".getBytes(StandardCharsets.UTF_8));

        MqttProperties out = PublishRecords.deliveryProperties(headers, 1000L);
        assertThat(out.getProperty(MqttProperties.PAYLOAD_FORMAT_INDICATOR)).isNull();
        assertThat(out.getProperty(MqttProperties.RESPONSE_TOPIC)).isNull();
        assertThat(out.getProperties(MqttProperties.USER_PROPERTY).stream()
                        .map(p -> ((MqttProperties.UserProperty) p).value().key)
                        .toList())
                .containsExactly("z", "a");
    }

    @Test
    void message_expiry_counts_down_and_expired_messages_are_not_delivered() {
        MqttProperties in = new MqttProperties();
        in.add(new MqttProperties.IntegerProperty(MqttProperties.PUBLICATION_EXPIRY_INTERVAL, 10));
        ProducerRecord<byte[], byte[]> r =
                PublishRecords.toRecord("t", new byte[0], 0, false, "c", MqttVersion.MQTT_5, "n", in, 1_000L);
        assertThat(PublishRecords.deliveryProperties(r.headers(), 4_000L)
                        .getProperty(MqttProperties.PUBLICATION_EXPIRY_INTERVAL)
                        .value())
                .isEqualTo(7);
        assertThat(PublishRecords.deliveryProperties(r.headers(), 11_000L)).isNull();
    }

    @Test
    void a_will_handed_to_session_service_becomes_the_same_record_the_node_would_produce() throws Exception {
        MqttProperties props = new MqttProperties();
        props.add(new MqttProperties.IntegerProperty(MqttProperties.WILL_DELAY_INTERVAL, 30));
        props.add(new MqttProperties.IntegerProperty(MqttProperties.PAYLOAD_FORMAT_INDICATOR, 1));
        props.add(new MqttProperties.IntegerProperty(MqttProperties.PUBLICATION_EXPIRY_INTERVAL, -2));
        props.add(new MqttProperties.StringProperty(MqttProperties.CONTENT_TYPE, "text/plain"));
        props.add(new MqttProperties.StringProperty(MqttProperties.RESPONSE_TOPIC, "reply/w"));
        props.add(new MqttProperties.BinaryProperty(MqttProperties.CORRELATION_DATA, new byte[] {1, 2}));
        props.add(new MqttProperties.UserProperty("k", "v1"));
        props.add(new MqttProperties.UserProperty("k", "v2"));
        WillMessage will = new WillMessage("dev/1/status", "offline".getBytes(StandardCharsets.UTF_8), 1, true, props);
        io.tributary.common.session.ConnectApi.Will api = PublishRecords.willForSession(will);
        assertThat(api.delaySeconds()).isEqualTo(30);
        // Through JSON, as the internal API carries it, then built by the common format as session-service does.
        tools.jackson.databind.json.JsonMapper json =
                tools.jackson.databind.json.JsonMapper.builder().build();
        api = json.readValue(json.writeValueAsBytes(api), io.tributary.common.session.ConnectApi.Will.class);
        ProducerRecord<byte[], byte[]> byNode = PublishRecords.toRecord(
                will.topic(),
                will.payload(),
                will.qos(),
                will.retain(),
                "dev-1",
                MqttVersion.MQTT_5,
                "node-a",
                will.properties(),
                5000L);
        ProducerRecord<byte[], byte[]> bySessionService = io.tributary.common.kafka.PublishRecordFormat.toRecord(
                api.topic(), api.payload(), api.qos(), api.retain(), "dev-1", 5, "node-a", api.properties(), 5000L);
        assertThat(bySessionService.key()).isEqualTo(byNode.key());
        assertThat(bySessionService.value()).isEqualTo(byNode.value());
        assertThat(List.of(bySessionService.headers().toArray()))
                .hasSameSizeAs(List.of(byNode.headers().toArray()));
        var a = byNode.headers().toArray();
        var b = bySessionService.headers().toArray();
        for (int i = 0; i < a.length; i++) {
            assertThat(b[i].key()).isEqualTo(a[i].key());
            assertThat(b[i].value()).as(a[i].key()).isEqualTo(a[i].value());
        }
        assertThat(RecordHeaders.readUnsignedInt(byNode.headers(), RecordHeaders.MESSAGE_EXPIRY))
                .isEqualTo(0xFFFFFFFEL);
    }

    @Test
    void a_traceparent_header_without_its_user_property_is_delivered_as_one_and_never_twice() {
        String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        // Generated by the node for an MQTT 3.1.1 publish: only the header.
        ProducerRecord<byte[], byte[]> generated =
                PublishRecords.toRecord("t", new byte[0], 1, false, "c", MqttVersion.MQTT_3_1_1, "n", null, 1L);
        generated.headers().add(RecordHeaders.TRACEPARENT, RecordHeaders.utf8(traceparent));
        assertThat(userProperties(PublishRecords.deliveryProperties(generated.headers(), 1L)))
                .containsExactly("traceparent=" + traceparent);

        // Sent by an MQTT 5 publisher: header and user property; delivered once, with its tracestate, in order.
        MqttProperties in = new MqttProperties();
        in.add(new MqttProperties.UserProperty("traceparent", traceparent));
        in.add(new MqttProperties.UserProperty("tracestate", "a=1"));
        ProducerRecord<byte[], byte[]> sent =
                PublishRecords.toRecord("t", new byte[0], 1, false, "c", MqttVersion.MQTT_5, "n", in, 1L);
        assertThat(RecordHeaders.readString(sent.headers(), RecordHeaders.TRACEPARENT))
                .isEqualTo(traceparent);
        assertThat(userProperties(PublishRecords.deliveryProperties(sent.headers(), 1L)))
                .containsExactly("traceparent=" + traceparent, "tracestate=a=1");
    }

    private static List<String> userProperties(MqttProperties properties) {
        return properties.getProperties(MqttProperties.USER_PROPERTY).stream()
                .map(p -> ((MqttProperties.UserProperty) p).value())
                .map(pair -> pair.key + "=" + pair.value)
                .toList();
    }
}
