package io.tributary.it.ops;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PromQlNamesTest {

    @Test
    void finds_metrics_but_not_functions_labels_strings_or_durations() {
        assertThat(PromQlNames.of("sum by (qos) (rate(tributary_publishes_in_total{qos=\"1\", node=~\"a.*\"}"
                        + "[$__rate_interval]))"))
                .containsExactly("tributary_publishes_in_total");
        assertThat(PromQlNames.of("histogram_quantile(0.99, sum by (le) (rate(x_seconds_bucket[5m]))) * 1e3"))
                .containsExactly("x_seconds_bucket");
        assertThat(PromQlNames.of("-sum by (node) (rate(a_total[1m])) / ignoring (x) b + on(y) group_left(z) c"))
                .containsExactly("a_total", "b", "c");
        assertThat(PromQlNames.of("max(up{job=\"$job\"}) offset 5m > bool 0 and ${other}"))
                .containsExactly("up");
    }
}
