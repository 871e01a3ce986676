package io.tributary.common.topic;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SharedFiltersTest {

    @Test
    void share_name_and_inner_filter_are_split_at_the_first_slash_after_the_prefix() {
        assertThat(SharedFilters.isShared("$share/g1/a/+/c")).isTrue();
        assertThat(SharedFilters.shareName("$share/g1/a/+/c")).isEqualTo("g1");
        assertThat(SharedFilters.innerFilter("$share/g1/a/+/c")).isEqualTo("a/+/c");
        assertThat(SharedFilters.innerFilter("$share/g/#")).isEqualTo("#");
        assertThat(SharedFilters.problem("$share/g1/a/+/c")).isNull();
    }

    @Test
    void normal_filters_are_their_own_inner_filter() {
        assertThat(SharedFilters.isShared("a/b")).isFalse();
        assertThat(SharedFilters.isShared("$SYS/share/x")).isFalse();
        assertThat(SharedFilters.isShared("$sharex/g/a")).isFalse();
        assertThat(SharedFilters.innerFilter("a/b")).isEqualTo("a/b");
        assertThat(SharedFilters.shareName("a/b")).isNull();
    }

    @Test
    void invalid_share_names_and_inner_filters_are_named() {
        assertThat(SharedFilters.problem("$share/")).isNotNull();
        assertThat(SharedFilters.problem("$share/g")).isNotNull();
        assertThat(SharedFilters.problem("$share//a")).isNotNull();
        assertThat(SharedFilters.problem("$share/g+/a")).isNotNull();
        assertThat(SharedFilters.problem("$share/#/a")).isNotNull();
        assertThat(SharedFilters.problem("$share/g/")).isNotNull();
        assertThat(SharedFilters.problem("$share/g/a/#/b")).isNotNull();
    }
}
