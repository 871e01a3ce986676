package io.tributary.common.mapping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.common.kafka.TopicNames;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class MappingRuleTest {

    @Test
    void namedLevelsMatchLikePlusAndGiveTheirValues() {
        MappingRule rule = MappingRule.of(7, "vehicles/{vin}/telemetry/#", "vehicle-telemetry", "{vin}");
        assertThat(rule.filter().mqttFilter()).isEqualTo("vehicles/+/telemetry/#");
        assertThat(rule.filter().levelNames()).containsExactly("vin");
        assertThat(new String(
                        rule.key().key(rule.filter(), "vehicles/WVW123/telemetry/gps", "c1"), StandardCharsets.UTF_8))
                .isEqualTo("WVW123");
        // A named level in last position, and an empty level value.
        MappingRule last = MappingRule.of(1, "a/{x}", "t", "{x}");
        assertThat(new String(last.key().key(last.filter(), "a/", "c"), StandardCharsets.UTF_8))
                .isEmpty();
    }

    @Test
    void keySources() {
        NamedLevelFilter f = NamedLevelFilter.parse("a/{b}");
        assertThat(RecordKeySource.parse(null, f)).isEqualTo(RecordKeySource.TOPIC);
        assertThat(new String(RecordKeySource.parse("topic", f).key(f, "a/x", "c"), StandardCharsets.UTF_8))
                .isEqualTo("a/x");
        assertThat(new String(RecordKeySource.parse("client-id", f).key(f, "a/x", "c"), StandardCharsets.UTF_8))
                .isEqualTo("c");
        assertThat(RecordKeySource.parse("none", f).key(f, "a/x", "c")).isNull();
        assertThat(RecordKeySource.parse("{b}", f).toString()).isEqualTo("{b}");
    }

    @Test
    void badRulesAreRefusedWithTheReason() {
        assertThatThrownBy(() -> MappingRule.of(1, "a/{vin}/#", "t", "{serial}"))
                .hasMessageContaining("names no level")
                .hasMessageContaining("[vin]");
        assertThatThrownBy(() -> NamedLevelFilter.parse("a/#/b")).hasMessageContaining("'#' must be the last level");
        assertThatThrownBy(() -> NamedLevelFilter.parse("a/b+")).hasMessageContaining("whole level");
        assertThatThrownBy(() -> NamedLevelFilter.parse("a/x{vin}")).hasMessageContaining("whole level");
        assertThatThrownBy(() -> NamedLevelFilter.parse("a/{v in}")).hasMessageContaining("must match");
        assertThatThrownBy(() -> NamedLevelFilter.parse("{a}/{a}")).hasMessageContaining("twice");
        assertThatThrownBy(() -> NamedLevelFilter.parse("$share/g/a")).hasMessageContaining("'$'");
        assertThatThrownBy(() -> NamedLevelFilter.parse("")).hasMessageContaining("required");
        assertThatThrownBy(() -> MappingRule.of(1, "a", "bad topic", "topic")).hasMessageContaining("kafkaTopic");
        assertThatThrownBy(() -> MappingRule.of(1, "a", TopicNames.PUBLISH, "topic"))
                .hasMessageContaining("reserved");
        assertThatThrownBy(() -> MappingRule.of(1, "a", "__consumer_offsets", "topic"))
                .hasMessageContaining("reserved");
        assertThatThrownBy(() -> MappingRule.of(1, "a", "t", "key")).hasMessageContaining("key must be");
    }

    @Test
    void recordsRoundTrip() {
        MappingRule rule = MappingRule.of(42, "v/{vin}/#", "telemetry", "{vin}");
        ProducerRecord<byte[], byte[]> produced = MappingRuleRecords.toRecord(rule);
        assertThat(produced.topic()).isEqualTo(TopicNames.MAPPING_RULES);
        ConsumerRecord<byte[], byte[]> consumed =
                new ConsumerRecord<>(produced.topic(), 0, 0, produced.key(), produced.value());
        produced.headers().forEach(consumed.headers()::add);
        MappingRule back = MappingRuleRecords.fromRecord(consumed);
        assertThat(back.id()).isEqualTo(42);
        assertThat(back.filter().text()).isEqualTo("v/{vin}/#");
        assertThat(back.kafkaTopic()).isEqualTo("telemetry");
        assertThat(back.key()).isEqualTo(rule.key());
        assertThat(MappingRuleRecords.tombstone(42).value()).isNull();
        assertThat(MappingRuleRecords.tombstone(42).key()).isEqualTo(produced.key());
    }
}
