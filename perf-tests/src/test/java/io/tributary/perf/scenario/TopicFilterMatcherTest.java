package io.tributary.perf.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TopicFilterMatcherTest {

    @Test
    void matchesLikeAnMqttBroker() {
        assertThat(TopicFilterMatcher.matches("US/NewYork/#", "US/NewYork/17")).isTrue();
        assertThat(TopicFilterMatcher.matches("US/NewYork/#", "US/NewYork")).isTrue();
        assertThat(TopicFilterMatcher.matches("US/NewYork/#", "US/Boston/1")).isFalse();
        assertThat(TopicFilterMatcher.matches("US/+/1", "US/Boston/1")).isTrue();
        assertThat(TopicFilterMatcher.matches("US/+/1", "US/Boston/1/x")).isFalse();
        assertThat(TopicFilterMatcher.matches("US/+", "US")).isFalse();
        assertThat(TopicFilterMatcher.matches("+/+", "/x")).isTrue();
        assertThat(TopicFilterMatcher.matches("#", "a/b/c")).isTrue();
        assertThat(TopicFilterMatcher.matches("#", "$SYS/x")).isFalse();
        assertThat(TopicFilterMatcher.matches("t-5", "t-5")).isTrue();
        assertThat(TopicFilterMatcher.matches("t-5", "t-50")).isFalse();
        assertThat(TopicFilterMatcher.matches("a/b", "a/b/")).isFalse();
    }

    @Test
    void checksSyntax() {
        assertThat(TopicFilterMatcher.filterProblem("a/+/#")).isNull();
        assertThat(TopicFilterMatcher.filterProblem("a/b#")).isNotNull();
        assertThat(TopicFilterMatcher.filterProblem("a/#/b")).isNotNull();
        assertThat(TopicFilterMatcher.filterProblem("a+/b")).isNotNull();
        assertThat(TopicFilterMatcher.topicProblem("a/+")).isNotNull();
        assertThat(TopicFilterMatcher.topicProblem("a/b")).isNull();
    }
}
