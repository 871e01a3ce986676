package io.tributary.session.retained;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.session.SubscribeApi;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetainedQueryTest {

    @Test
    void exact_filter_is_looked_up_by_equality() {
        RetainedQuery q = RetainedQuery.of("a/b/c");
        assertThat(q.exact()).isTrue();
        assertThat(q.likePattern()).isNull();
        assertThat(q.matches("a/b/c")).isTrue();
        assertThat(q.matches("a/b/c/d")).isFalse();
    }

    @Test
    void wildcard_filter_narrows_by_the_literal_prefix_before_the_first_wildcard() {
        assertThat(RetainedQuery.of("sensors/+/temp").likePattern()).isEqualTo("sensors/%");
        assertThat(RetainedQuery.of("sensors/#").likePattern()).isEqualTo("sensors/%");
        assertThat(RetainedQuery.of("a/b/+/c/#").likePattern()).isEqualTo("a/b/%");
        assertThat(RetainedQuery.of("#").likePattern()).isEqualTo("%");
        assertThat(RetainedQuery.of("+/x").likePattern()).isEqualTo("%");
    }

    @Test
    void like_wildcards_in_the_prefix_are_escaped() {
        assertThat(RetainedQuery.of("100%_done\\x/#").likePattern()).isEqualTo("100\\%\\_done\\\\x/%");
    }

    @Test
    void candidates_are_matched_with_mqtt_rules() {
        RetainedQuery plus = RetainedQuery.of("sensors/+/temp");
        assertThat(plus.matches("sensors/1/temp")).isTrue();
        assertThat(plus.matches("sensors//temp")).isTrue();
        assertThat(plus.matches("sensors/1/2/temp")).isFalse();
        assertThat(plus.matches("sensors/1/temperature")).isFalse();

        RetainedQuery hash = RetainedQuery.of("sensors/#");
        assertThat(hash.matches("sensors"))
                .as("# also matches the parent level")
                .isTrue();
        assertThat(hash.matches("sensors/a/b/c")).isTrue();
        assertThat(hash.matches("sensorsX/a")).isFalse();
    }

    @Test
    void leading_wildcards_do_not_match_dollar_topics() {
        assertThat(RetainedQuery.of("#").matches("$SYS/uptime")).isFalse();
        assertThat(RetainedQuery.of("+/uptime").matches("$SYS/uptime")).isFalse();
        assertThat(RetainedQuery.of("$SYS/#").matches("$SYS/uptime")).isTrue();
        assertThat(RetainedQuery.of("#").matches("a/b")).isTrue();
    }

    @Test
    void headers_survive_the_column_encoding_in_order_with_nulls() {
        List<SubscribeApi.Header> headers = List.of(
                new SubscribeApi.Header("mqtt5.user.k", "1".getBytes(StandardCharsets.UTF_8)),
                new SubscribeApi.Header("mqtt5.user.k", "2".getBytes(StandardCharsets.UTF_8)),
                new SubscribeApi.Header("näme", null),
                new SubscribeApi.Header("empty", new byte[0]));
        List<SubscribeApi.Header> back = RetainedHeaders.decode(RetainedHeaders.encode(headers));
        assertThat(back)
                .extracting(SubscribeApi.Header::name)
                .containsExactly("mqtt5.user.k", "mqtt5.user.k", "näme", "empty");
        assertThat(back.get(0).value()).containsExactly('1');
        assertThat(back.get(1).value()).containsExactly('2');
        assertThat(back.get(2).value()).isNull();
        assertThat(back.get(3).value()).isEmpty();
        assertThat(RetainedHeaders.decode(RetainedHeaders.encode(List.of()))).isEmpty();
    }
}
