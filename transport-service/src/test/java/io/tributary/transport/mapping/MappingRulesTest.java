package io.tributary.transport.mapping;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.kafka.PublishRecordFormat;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.mapping.MappingRule;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class MappingRulesTest {

    private static ProducerRecord<byte[], byte[]> publish(String topic) {
        return PublishRecordFormat.toRecord(topic, new byte[] {1, 2}, 1, false, "dev-9", 5, "node-a", null, 7L);
    }

    @Test
    void a_matching_rule_adds_a_record_with_its_key_the_payload_and_the_publish_headers() {
        MappingRules rules = new MappingRules();
        rules.put(MappingRule.of(1, "v/{vin}/t/#", "telemetry", "{vin}"));
        rules.put(MappingRule.of(2, "v/+/t/gps", "gps", "client-id"));
        rules.put(MappingRule.of(3, "other/#", "other", "none"));

        ProducerRecord<byte[], byte[]> publish = publish("v/W1/t/gps");
        List<ProducerRecord<byte[], byte[]>> records = rules.recordsFor("v/W1/t/gps", "dev-9", publish);
        assertThat(records.get(0)).isSameAs(publish);
        assertThat(records)
                .extracting(ProducerRecord::topic)
                .containsExactlyInAnyOrder("tributary.publish", "telemetry", "gps");
        ProducerRecord<byte[], byte[]> telemetry = records.stream()
                .filter(r -> r.topic().equals("telemetry"))
                .findFirst()
                .orElseThrow();
        assertThat(new String(telemetry.key(), StandardCharsets.UTF_8)).isEqualTo("W1");
        assertThat(telemetry.value()).containsExactly(1, 2);
        assertThat(RecordHeaders.readString(telemetry.headers(), RecordHeaders.CLIENT_ID))
                .isEqualTo("dev-9");
        assertThat(RecordHeaders.readString(telemetry.headers(), RecordHeaders.MQTT_TOPIC))
                .isEqualTo("v/W1/t/gps");
        assertThat(publish.headers().lastHeader(RecordHeaders.MQTT_TOPIC))
                .as("publish record untouched")
                .isNull();
        ProducerRecord<byte[], byte[]> gps = records.stream()
                .filter(r -> r.topic().equals("gps"))
                .findFirst()
                .orElseThrow();
        assertThat(new String(gps.key(), StandardCharsets.UTF_8)).isEqualTo("dev-9");

        assertThat(rules.recordsFor("v/W1/status", "dev-9", publish("v/W1/status")))
                .hasSize(1);
        assertThat(rules.unavailableTopic(records)).isNull();
        rules.markUnavailable("gps", true);
        assertThat(rules.unavailableTopic(records)).isEqualTo("gps");
    }

    @Test
    void a_replaced_or_removed_rule_no_longer_matches() {
        MappingRules rules = new MappingRules();
        rules.put(MappingRule.of(1, "a/+", "t1", "topic"));
        rules.put(MappingRule.of(1, "b/+", "t1", "topic"));
        assertThat(rules.recordsFor("a/x", "c", publish("a/x"))).hasSize(1);
        assertThat(rules.recordsFor("b/x", "c", publish("b/x"))).hasSize(2);
        rules.remove(1);
        assertThat(rules.recordsFor("b/x", "c", publish("b/x"))).hasSize(1);
        assertThat(rules.size()).isZero();
    }
}
