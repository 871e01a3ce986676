package io.tributary.common.topic;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TopicFiltersTest {

    @Test
    void valid_filters() {
        for (String f : new String[] {"#", "+", "a/+/b", "a/#", "+/+", "/", "a//b", "$SYS/#", "sport/+"}) {
            assertThat(TopicFilters.topicFilterProblem(f)).as(f).isNull();
        }
    }

    @Test
    void invalid_filters_name_the_problem() {
        assertThat(TopicFilters.topicFilterProblem("")).contains("empty");
        assertThat(TopicFilters.topicFilterProblem("a/#/b")).contains("last level");
        assertThat(TopicFilters.topicFilterProblem("a#")).contains("whole level");
        assertThat(TopicFilters.topicFilterProblem("a/b+")).contains("whole level");
        assertThat(TopicFilters.topicFilterProblem("a/\u0000")).contains("U+0000");
    }

    @Test
    void topic_names_reject_wildcards() {
        assertThat(TopicFilters.topicNameProblem("a/b")).isNull();
        assertThat(TopicFilters.topicNameProblem("a/+")).contains("wildcard");
        assertThat(TopicFilters.topicNameProblem("#")).contains("wildcard");
        assertThat(TopicFilters.topicNameProblem("")).contains("empty");
    }

    @Test
    void levels_count_separators_plus_one_and_shared_filters_count_their_inner_filter() {
        assertThat(TopicFilters.levels("a")).isEqualTo(1);
        assertThat(TopicFilters.levels("a/b/c")).isEqualTo(3);
        assertThat(TopicFilters.levels("/")).isEqualTo(2);
        assertThat(TopicFilters.levels("a//b/")).isEqualTo(4);
        assertThat(TopicFilters.levels("a/#")).isEqualTo(2);
        assertThat(TopicFilters.levels("$share/group/a/+/c")).isEqualTo(3);
        assertThat(TopicFilters.levels("$SYS/broker/load")).isEqualTo(3);
    }
}
