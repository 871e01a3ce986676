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
        PublishProperties props = new PublishProperties(
                1,
                "text/plain",
                "reply/to",
                utf8("corr"),
                4_000_000_000L,
                List.of(
                        new PublishProperties.UserProperty("b", "2"),
                        new PublishProperties.UserProperty("a", "1"),
                        new PublishProperties.UserProperty("b", "3")));
        ProducerRecord<byte[], byte[]> r =
                PublishRecordFormat.toRecord("t/1", utf8("p"), 2, true, "c1", 5, "n1", props, 1234L);
        assertThat(r.topic()).isEqualTo(TopicNames.PUBLISH);
        assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo("t/1");
        assertThat(r.value()).isEqualTo(utf8("p"));
        assertThat(List.of(r.headers().toArray()))
                .extracting(Header::key)
                .containsExactly(
                        RecordHeaders.QOS,
                        RecordHeaders.RETAIN,
                        RecordHeaders.CLIENT_ID,
                        RecordHeaders.PROTOCOL_VERSION,
                        RecordHeaders.NODE_ID,
                        RecordHeaders.RECEIVED_AT,
                        RecordHeaders.PAYLOAD_FORMAT,
                        RecordHeaders.CONTENT_TYPE,
                        RecordHeaders.RESPONSE_TOPIC,
                        RecordHeaders.CORRELATION_DATA,
                        RecordHeaders.MESSAGE_EXPIRY,
                        "mqtt5.user.b",
                        "mqtt5.user.a",
                        "mqtt5.user.b");
        // Every header but the opaque correlation data is text a Kafka tool shows as is.
        assertThat(text(r, RecordHeaders.QOS)).isEqualTo("2");
        assertThat(text(r, RecordHeaders.RETAIN)).isEqualTo("true");
        assertThat(text(r, RecordHeaders.CLIENT_ID)).isEqualTo("c1");
        assertThat(text(r, RecordHeaders.PROTOCOL_VERSION)).isEqualTo("5");
        assertThat(text(r, RecordHeaders.RECEIVED_AT)).isEqualTo("1234");
        assertThat(text(r, RecordHeaders.PAYLOAD_FORMAT)).isEqualTo("1");
        assertThat(text(r, RecordHeaders.MESSAGE_EXPIRY))
                .as("the unsigned value")
                .isEqualTo("4000000000");
        assertThat(RecordHeaders.readBytes(r.headers(), RecordHeaders.CORRELATION_DATA))
                .isEqualTo(utf8("corr"));
        assertThat(RecordHeaders.readUnsignedInt(r.headers(), RecordHeaders.MESSAGE_EXPIRY))
                .isEqualTo(4_000_000_000L);
        assertThat(RecordHeaders.readLong(r.headers(), RecordHeaders.RECEIVED_AT))
                .isEqualTo(1234L);
        assertThat(RecordHeaders.readInt8(r.headers(), RecordHeaders.PROTOCOL_VERSION))
                .isEqualTo(5);
        assertThat(RecordHeaders.readQos(r.headers())).isEqualTo(2);
        assertThat(RecordHeaders.readFlag(r.headers(), RecordHeaders.RETAIN)).isTrue();
    }

    @Test
    void the_binary_format_writes_the_earlier_bytes_and_reads_back_the_same() {
        RecordHeaders.useWriteFormat(HeaderFormat.BINARY);
        try {
            ProducerRecord<byte[], byte[]> r = PublishRecordFormat.toRecord(
                    "t/1",
                    utf8("p"),
                    1,
                    true,
                    "c1",
                    4,
                    "n1",
                    new PublishProperties(0, null, null, null, 4_000_000_000L, List.of()),
                    1234L);
            assertThat(RecordHeaders.readBytes(r.headers(), RecordHeaders.QOS)).containsExactly(1);
            assertThat(RecordHeaders.readBytes(r.headers(), RecordHeaders.RETAIN))
                    .containsExactly(1);
            assertThat(RecordHeaders.readBytes(r.headers(), RecordHeaders.PROTOCOL_VERSION))
                    .containsExactly(4);
            assertThat(RecordHeaders.readBytes(r.headers(), RecordHeaders.RECEIVED_AT))
                    .hasSize(8);
            assertThat(RecordHeaders.readBytes(r.headers(), RecordHeaders.PAYLOAD_FORMAT))
                    .containsExactly(0);
            assertThat(RecordHeaders.readBytes(r.headers(), RecordHeaders.MESSAGE_EXPIRY))
                    .hasSize(4);
            assertThat(RecordHeaders.readQos(r.headers())).isEqualTo(1);
            assertThat(RecordHeaders.readFlag(r.headers(), RecordHeaders.RETAIN))
                    .isTrue();
            assertThat(RecordHeaders.readLong(r.headers(), RecordHeaders.RECEIVED_AT))
                    .isEqualTo(1234L);
            assertThat(RecordHeaders.readInt8(r.headers(), RecordHeaders.PAYLOAD_FORMAT))
                    .isZero();
            assertThat(RecordHeaders.readUnsignedInt(r.headers(), RecordHeaders.MESSAGE_EXPIRY))
                    .isEqualTo(4_000_000_000L);
        } finally {
            RecordHeaders.useWriteFormat(HeaderFormat.TEXT);
        }
    }

    private static String text(ProducerRecord<byte[], byte[]> r, String name) {
        return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    @Test
    void without_properties_only_the_mqtt_metadata_is_there() {
        ProducerRecord<byte[], byte[]> r =
                PublishRecordFormat.toRecord("t", new byte[0], 0, false, "c", 4, "n", null, 1L);
        assertThat(r.headers().toArray()).hasSize(6);
        assertThat(r.headers().lastHeader(RecordHeaders.TENANT)).isNull();
    }

    @Test
    void a_record_of_a_tenants_namespace_names_the_tenant_in_a_header() {
        ProducerRecord<byte[], byte[]> r =
                PublishRecordFormat.toRecord("$tenant/acme/meters/1", new byte[0], 0, false, "c", 4, "n", null, 1L);
        assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo("$tenant/acme/meters/1");
        assertThat(text(r, RecordHeaders.TENANT)).isEqualTo("acme");
    }
}
