package io.tributary.transport.alias;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TopicAliasesTest {

    @Test
    void inbound_alias_is_defined_by_a_topic_and_then_stands_for_it() {
        InboundTopicAliases aliases = new InboundTopicAliases(3);
        InboundTopicAliases.Resolution first = aliases.resolve("a/b", 2);
        assertThat(first.failed()).isFalse();
        assertThat(first.topic()).isEqualTo("a/b");
        aliases.define(2, "a/b");
        assertThat(aliases.resolve("", 2).topic()).isEqualTo("a/b");

        aliases.define(2, "c/d"); // a later PUBLISH with topic and alias redefines it
        assertThat(aliases.resolve("", 2).topic()).isEqualTo("c/d");
        assertThat(aliases.resolve("x", null).topic()).isEqualTo("x");
    }

    @Test
    void inbound_alias_out_of_range_is_topic_alias_invalid() {
        InboundTopicAliases aliases = new InboundTopicAliases(3);
        assertThat(aliases.resolve("a", 0).reasonCode()).isEqualTo((byte) 0x94);
        assertThat(aliases.resolve("a", 4).reasonCode()).isEqualTo((byte) 0x94);
        assertThat(new InboundTopicAliases(0).resolve("a", 1).reasonCode()).isEqualTo((byte) 0x94);
    }

    @Test
    void empty_topic_without_a_known_alias_is_a_protocol_error() {
        InboundTopicAliases aliases = new InboundTopicAliases(3);
        assertThat(aliases.resolve("", null).reasonCode()).isEqualTo((byte) 0x82);
        assertThat(aliases.resolve("", 1).reasonCode()).isEqualTo((byte) 0x82);
        assertThat(aliases.resolve("", 1).failed()).isTrue();
    }

    @Test
    void outbound_aliases_go_to_the_first_distinct_topics_and_never_change() {
        OutboundTopicAliases aliases = new OutboundTopicAliases(2);
        assertThat(aliases.use("t/1")).isEqualTo(new OutboundTopicAliases.Use("t/1", 1));
        assertThat(aliases.use("t/1")).isEqualTo(new OutboundTopicAliases.Use("", 1));
        assertThat(aliases.use("t/2")).isEqualTo(new OutboundTopicAliases.Use("t/2", 2));
        assertThat(aliases.use("t/3"))
                .as("maximum reached: full topic, no alias")
                .isEqualTo(new OutboundTopicAliases.Use("t/3", 0));
        assertThat(aliases.use("t/3")).isEqualTo(new OutboundTopicAliases.Use("t/3", 0));
        assertThat(aliases.use("t/2")).isEqualTo(new OutboundTopicAliases.Use("", 2));
    }
}
