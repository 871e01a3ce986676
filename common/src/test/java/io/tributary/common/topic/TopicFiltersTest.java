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
}
