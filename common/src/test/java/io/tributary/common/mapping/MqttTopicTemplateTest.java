package io.tributary.common.mapping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MqttTopicTemplateTest {

    @Test
    void the_key_fills_its_placeholder_and_cannot_change_the_topics_levels() {
        MqttTopicTemplate t = MqttTopicTemplate.parse("devices/{key}/commands");
        assertThat(t.topicFor("dev-1")).isEqualTo("devices/dev-1/commands");
        assertThat(t.topicFor("a/b")).isNull();
        assertThat(t.topicFor("+")).isNull();
        assertThat(t.topicFor("#")).isNull();
        assertThat(t.topicFor(null)).isNull();
        assertThat(t.topicFor("")).isNull();
        assertThat(MqttTopicTemplate.parse("broadcast/all").topicFor(null)).isEqualTo("broadcast/all");
    }

    @Test
    void a_key_at_the_front_cannot_open_a_dollar_level_such_as_a_tenants_namespace() {
        MqttTopicTemplate t = MqttTopicTemplate.parse("{key}/acme/meters");
        assertThat(t.topicFor("$tenant")).isNull();
        assertThat(t.topicFor("$SYS")).isNull();
        assertThat(t.topicFor("site-1")).isEqualTo("site-1/acme/meters");
    }

    @Test
    void bad_templates_are_refused() {
        assertThatThrownBy(() -> MqttTopicTemplate.parse("devices/+/commands")).hasMessageContaining("wildcard");
        assertThatThrownBy(() -> MqttTopicTemplate.parse("devices/{vin}")).hasMessageContaining("{key}");
        assertThatThrownBy(() -> MqttTopicTemplate.parse("$SYS/x")).hasMessageContaining("'$'");
        assertThatThrownBy(() -> MqttTopicTemplate.parse("")).hasMessageContaining("required");
    }
}
