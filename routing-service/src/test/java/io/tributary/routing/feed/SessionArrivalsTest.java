package io.tributary.routing.feed;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.subscription.SubscriptionRecord;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SessionArrivalsTest {

    private static final long NOW = 1_000_000_000L;
    private final SessionArrivals arrivals = new SessionArrivals();

    private static SubscriptionRecord persistent(String client, String filter, String node, long epoch) {
        return new SubscriptionRecord(client, filter, node, 1, false, false, 0, epoch, true);
    }

    @Test
    void a_persistent_session_connecting_again_wakes_its_new_node_once() {
        SubscriptionRecord away = persistent("c", "a/b", null, 1);
        arrivals.applied(away, persistent("c", "a/b", "n1", 2), NOW, NOW);
        arrivals.applied(persistent("c", "a/+", null, 1), persistent("c", "a/+", "n1", 2), NOW, NOW);

        assertThat(arrivals.drain()).isEqualTo(Map.of("c", "n1"));
        assertThat(arrivals.drain()).isEmpty();
    }

    @Test
    void a_new_epoch_on_the_same_node_wakes_it_too() {
        arrivals.applied(persistent("c", "a/b", "n1", 2), persistent("c", "a/b", "n1", 3), NOW, NOW);

        assertThat(arrivals.drain()).isEqualTo(Map.of("c", "n1"));
    }

    @Test
    void a_first_subscription_of_a_connected_persistent_session_wakes_its_node() {
        arrivals.applied(null, persistent("c", "a/b", "n1", 2), NOW, NOW);

        assertThat(arrivals.drain()).isEqualTo(Map.of("c", "n1"));
    }

    @Test
    void the_latest_node_wins_within_one_drain() {
        arrivals.applied(null, persistent("c", "a/b", "n1", 2), NOW, NOW);
        arrivals.applied(persistent("c", "a/b", "n1", 2), persistent("c", "a/b", "n2", 3), NOW, NOW);

        assertThat(arrivals.drain()).isEqualTo(Map.of("c", "n2"));
    }

    @Test
    void the_same_record_again_an_offline_one_a_removal_or_a_clean_session_wake_nobody() {
        arrivals.applied(persistent("c", "a/b", "n1", 2), persistent("c", "a/b", "n1", 2), NOW, NOW);
        arrivals.applied(persistent("c", "a/b", "n1", 2), persistent("c", "a/b", null, 2), NOW, NOW);
        arrivals.applied(persistent("c", "a/b", "n1", 2), null, NOW, NOW);
        arrivals.applied(null, new SubscriptionRecord("clean", "a/b", "n1", 1, false, false, 0, 4, false), NOW, NOW);

        assertThat(arrivals.drain()).isEmpty();
    }

    @Test
    void history_re_read_after_a_restart_wakes_nobody() {
        arrivals.applied(null, persistent("c", "a/b", "n1", 2), NOW - SessionArrivals.FRESH_MS - 1, NOW);

        assertThat(arrivals.drain()).isEmpty();
    }
}
