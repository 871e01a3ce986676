package io.tributary.common.topic;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FilterCoverageTest {

    @ParameterizedTest(name = "{0} covers {1}")
    @CsvSource({
        "a/b, a/b",
        "a/+, a/b",
        "a/+, a/+",
        "a/#, a",
        "a/#, a/b/c",
        "a/#, a/+/c",
        "a/#, a/#",
        "#, a/#",
        "#, #",
        "+/+, a/+",
        "$SYS/#, $SYS/broker/+",
    })
    void covered(String allowed, String requested) {
        assertThat(FilterCoverage.covers(allowed, requested)).isTrue();
    }

    @ParameterizedTest(name = "{0} does not cover {1}")
    @CsvSource({
        "a/b, a/+",
        "a/b, a/#",
        "a/b, a/b/c",
        "a/b/c, a/b",
        "a/+, a/b/c",
        "a/+, a/#",
        "a/+, a",
        "a/#, b",
        "a/#, +",
        "a/#, #",
        "+, +/+",
        "#, $SYS/x",
        "+/#, $SYS/x",
        "a/+/c, a/b/#",
    })
    void notCovered(String allowed, String requested) {
        assertThat(FilterCoverage.covers(allowed, requested)).isFalse();
    }

    @Test
    void coverage_agrees_with_matching_on_sample_topics() {
        // Whenever a filter is covered, every topic it matches must match the covering filter too.
        String[] filters = {"a/b", "a/+", "a/#", "#", "+/b", "+/+", "a/b/c", "a/+/c", "$SYS/#"};
        String[] topics = {"a", "a/b", "a/c", "a/b/c", "b/b", "$SYS/x", "a/x/c", "a//c", "/b"};
        for (String allowed : filters) {
            for (String requested : filters) {
                if (!FilterCoverage.covers(allowed, requested)) {
                    continue;
                }
                for (String topic : topics) {
                    if (TopicFilters.matches(requested, topic)) {
                        assertThat(TopicFilters.matches(allowed, topic))
                                .as("%s covers %s, so it must match %s", allowed, requested, topic)
                                .isTrue();
                    }
                }
            }
        }
    }
}
