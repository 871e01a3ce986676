package io.tributary.session.search;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SearchRulesTest {

    @Test
    void prefix_pattern_escapes_like_wildcards_and_the_escape_character() {
        assertThat(LikePattern.startingWith("meters/")).isEqualTo("meters/%");
        assertThat(LikePattern.startingWith("a_b%c\\d")).isEqualTo("a\\_b\\%c\\\\d%");
        assertThat(LikePattern.startingWith("")).isEqualTo("%");
    }

    @Test
    void share_group_is_the_second_level_of_a_shared_filter() {
        assertThat(SearchController.shareGroup("$share/g1/meters/#")).isEqualTo("g1");
        assertThat(SearchController.shareGroup("meters/#")).isNull();
        assertThat(SearchController.shareGroup("$share/incomplete")).isNull();
    }
}
