package io.tributary.common.acl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class AclPlaceholdersTest {

    @Test
    void placeholders_are_replaced_as_whole_levels() {
        assertThat(AclPlaceholders.resolve(
                        List.of("devices/%c/#", "users/%u/in", "fixed/+", "x/%u/%c"), "meter-7", "alice", null))
                .containsExactly("devices/meter-7/#", "users/alice/in", "fixed/+", "x/alice/meter-7");
    }

    @Test
    void a_value_that_would_widen_the_filter_drops_the_entry() {
        for (String clientId : new String[] {"#", "+", "a/b", "", "a\u0000"}) {
            assertThat(AclPlaceholders.resolve("devices/%c/#", clientId, "u", null))
                    .as(clientId)
                    .isNull();
        }
        assertThat(AclPlaceholders.resolve(List.of("users/%u", "public/#"), "c", null, null))
                .as("no user name: entries naming %u match nothing")
                .containsExactly("public/#");
    }

    @Test
    void certificate_cn_is_reserved_and_matches_nothing_without_a_certificate() {
        assertThat(AclPlaceholders.problem("certs/%cn/#")).isNull();
        assertThat(AclPlaceholders.resolve("certs/%cn/#", "c", "u", null)).isNull();
        assertThat(AclPlaceholders.resolve("certs/%cn/#", "c", "u", "gateway-1"))
                .isEqualTo("certs/gateway-1/#");
    }

    @Test
    void templates_are_checked_as_topic_filters_with_whole_level_placeholders() {
        assertThat(AclPlaceholders.problem("a/%c/#")).isNull();
        assertThat(AclPlaceholders.problem("a/x%c")).contains("whole-level");
        assertThat(AclPlaceholders.problem("a/%x")).contains("whole-level");
        assertThat(AclPlaceholders.problem("a/#/b")).contains("last level");
        assertThat(AclPlaceholders.problem("")).contains("empty");
    }
}
