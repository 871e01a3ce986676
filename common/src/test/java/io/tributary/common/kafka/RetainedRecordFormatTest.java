package io.tributary.common.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

class RetainedRecordFormatTest {

    private static ProducerRecord<byte[], byte[]> publish(String topic, String payload, boolean retain) {
        PublishProperties props = new PublishProperties(
                null, "text/plain", null, null, 60L, List.of(new PublishProperties.UserProperty("k", "v")));
        return PublishRecordFormat.toRecord(
                topic, payload.getBytes(StandardCharsets.UTF_8), 1, retain, "c1", 5, "n1", props, 1234L);
    }

    @Test
    void copy_has_the_publish_key_payload_and_headers_on_the_retained_topic() {
        ProducerRecord<byte[], byte[]> publish = publish("$tenant/acme/t/1", "on", true);
        ProducerRecord<byte[], byte[]> copy = RetainedRecordFormat.copyOf(publish);
        assertThat(copy.topic()).isEqualTo(TopicNames.RETAINED).isEqualTo("tributary.retained");
        assertThat(copy.partition()).isNull();
        assertThat(copy.key()).isEqualTo(publish.key());
        assertThat(copy.value()).isEqualTo("on".getBytes(StandardCharsets.UTF_8));
        assertThat(List.of(copy.headers().toArray()))
                .extracting(Header::key)
                .containsExactlyElementsOf(List.of(publish.headers().toArray()).stream()
                        .map(Header::key)
                        .toList());
        assertThat(RecordHeaders.readString(copy.headers(), RecordHeaders.TENANT))
                .isEqualTo("acme");
        // A header added to the copy later (tracing) does not change the publish record.
        copy.headers().add("x", new byte[] {1});
        assertThat(publish.headers().lastHeader("x")).isNull();
    }

    @Test
    void an_empty_payload_stays_an_empty_record_not_a_tombstone() {
        ProducerRecord<byte[], byte[]> copy = RetainedRecordFormat.copyOf(publish("t", "", true));
        assertThat(copy.value()).isNotNull().isEmpty();
    }

    @Test
    void only_retained_publish_records_have_a_copy() {
        assertThat(RetainedRecordFormat.isRetainedPublish(publish("t", "p", false)))
                .isFalse();
        assertThat(RetainedRecordFormat.isRetainedPublish(publish("t", "p", true)))
                .isTrue();
        assertThatThrownBy(() -> RetainedRecordFormat.copyOf(publish("t", "p", false)))
                .isInstanceOf(IllegalArgumentException.class);
        // A mapped copy on a user's topic carries mqtt.retain too, but is not the publish record.
        ProducerRecord<byte[], byte[]> retained = publish("t", "p", true);
        ProducerRecord<byte[], byte[]> mapped =
                new ProducerRecord<>("user.topic", null, retained.key(), retained.value(), retained.headers());
        assertThat(RetainedRecordFormat.isRetainedPublish(mapped)).isFalse();
    }

    @Test
    void with_copies_adds_the_copy_after_each_retained_publish_and_nothing_otherwise() {
        List<ProducerRecord<byte[], byte[]>> plain = List.of(publish("a", "1", false), publish("b", "2", false));
        assertThat(RetainedRecordFormat.withCopies(plain)).isSameAs(plain);

        ProducerRecord<byte[], byte[]> a = publish("a", "1", false);
        ProducerRecord<byte[], byte[]> b = publish("b", "2", true);
        ProducerRecord<byte[], byte[]> c = publish("c", "3", true);
        List<ProducerRecord<byte[], byte[]>> out = RetainedRecordFormat.withCopies(List.of(a, b, c));
        assertThat(out)
                .extracting(ProducerRecord::topic)
                .containsExactly(
                        TopicNames.PUBLISH,
                        TopicNames.PUBLISH,
                        TopicNames.RETAINED,
                        TopicNames.PUBLISH,
                        TopicNames.RETAINED);
        assertThat(out.get(2).key()).isEqualTo(b.key());
        assertThat(out.get(4).key()).isEqualTo(c.key());
    }
}
