package io.tributary.perf.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SelfWarmUpTest {

    @Test
    void publishes_through_the_real_client_code_in_memory_until_the_subscriber_has_them_all() {
        // Every message is delivered and accounted by the subscribing client, so its decode and record paths ran.
        assertThat(SelfWarmUp.run(5_000)).isBetween(5_000L, 5_000L + 10_000);
    }
}
