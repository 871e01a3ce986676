package io.tributary.common.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

class PublishRecordFormatTest {

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void record_carries_topic_payload_and_every_header_in_a_fixed_order() {
        PublishProperties props = new PublishProperties(1, "text/plain", "reply/to", utf8("corr"), 4_000_000_000L,
                List.of(new PublishProperties.UserProperty("b", "2"), new PublishProperties.UserProperty("a", "1"),
                        new PublishProperties.UserProperty("b", "3")));
        ProducerRecord<byte[], byte[]> r = PublishRecordFormat.toRecord("t/1", utf8("p"), 2, true, "c1", 5, "n1",
                props, 1234L);
        assertThat(r.topic()).isEqualTo(TopicNames.PUBLISH);
        assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo("t/1");
        assertThat(r.value()).isEqualTo(utf8("p"));
        assertThat(List.of(r.headers().toArray())).extracting(Header::key).containsExactly(RecordHeaders.QOS,
                RecordHeaders.RETAIN, RecordHeaders.CLIENT_ID, RecordHeaders.PROTOCOL_VERSION, RecordHeaders.NODE_ID,
                RecordHeaders.RECEIVED_AT, RecordHeaders.PAYLOAD_FORMAT, RecordHeaders.CONTENT_TYPE,
                RecordHeaders.RESPONSE_TOPIC, RecordHeaders.CORRELATION_DATA, RecordHeaders.MESSAGE_EXPIRY,
                "mqtt5.user.b", "mqtt5.user.a", "mqtt5.user.b");
        // The unsigned 32-bit expiry travels as its 4 bytes, as MQTT carries it.
        assertThat(Integer.toUnsignedLong(RecordHeaders.readInt(r.headers(), RecordHeaders.MESSAGE_EXPIRY)))
                .isEqualTo(4_000_000_000L);
        assertThat(RecordHeaders.readLong(r.headers(), RecordHeaders.RECEIVED_AT)).isEqualTo(1234L);
        assertThat(RecordHeaders.readBytes(r.headers(), RecordHeaders.PROTOCOL_VERSION)).containsExactly(5);
    }

    @Test
    void without_properties_only_the_mqtt_metadata_is_there() {
        ProducerRecord<byte[], byte[]> r = PublishRecordFormat.toRecord("t", new byte[0], 0, false, "c", 4, "n",
                null, 1L);
        assertThat(r.headers().toArray()).hasSize(6);
    }
}
