package io.tributary.routing.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.common.kafka.TopicNames;
import io.tributary.common.subscription.SubscriptionRecord;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SubscriptionChangeTest {

    private static final SubscriptionRecord EXACT = new SubscriptionRecord("c1", "a/b", "node-1", 2, true, false, 1, 7);
    private static final SubscriptionRecord WILDCARD = new SubscriptionRecord("c1", "a/+", null, 0, false, true, 0, 7);

    @Test
    void decodes_an_exact_upsert() {
        SubscriptionChange change =
                SubscriptionChange.decode(TopicNames.SUBSCRIPTIONS_EXACT, 5, EXACT.key(), EXACT.encode());

        assertThat(change).isEqualTo(new SubscriptionChange(true, 5, "a/b", "c1", EXACT));
        assertThat(change.removal()).isFalse();
    }

    @Test
    void decodes_a_wildcard_tombstone_from_the_key() {
        SubscriptionChange change = SubscriptionChange.decode(
                TopicNames.SUBSCRIPTIONS_WILDCARD, 0, SubscriptionRecord.key("a/+", "c1"), null);

        assertThat(change).isEqualTo(new SubscriptionChange(false, 0, "a/+", "c1", null));
        assertThat(change.removal()).isTrue();
    }

    @Test
    void decodes_an_offline_wildcard_subscription() {
        SubscriptionChange change =
                SubscriptionChange.decode(TopicNames.SUBSCRIPTIONS_WILDCARD, 1, WILDCARD.key(), WILDCARD.encode());

        assertThat(change.subscription().online()).isFalse();
    }

    @Test
    void rejects_records_that_break_the_feed_format() {
        byte[] garbage = "not a subscription".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> SubscriptionChange.decode(TopicNames.SUBSCRIPTIONS_EXACT, 0, null, EXACT.encode()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SubscriptionChange.decode(TopicNames.SUBSCRIPTIONS_EXACT, 0, garbage, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SubscriptionChange.decode(TopicNames.SUBSCRIPTIONS_EXACT, 0, EXACT.key(), garbage))
                .isInstanceOf(IllegalArgumentException.class);
        // A wildcard filter on the exact topic, and the other way round.
        assertThatThrownBy(() ->
                        SubscriptionChange.decode(TopicNames.SUBSCRIPTIONS_EXACT, 0, WILDCARD.key(), WILDCARD.encode()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() ->
                        SubscriptionChange.decode(TopicNames.SUBSCRIPTIONS_WILDCARD, 0, EXACT.key(), EXACT.encode()))
                .isInstanceOf(IllegalArgumentException.class);
        // The key names another client than the value.
        assertThatThrownBy(() -> SubscriptionChange.decode(
                        TopicNames.SUBSCRIPTIONS_EXACT, 0, SubscriptionRecord.key("a/b", "c2"), EXACT.encode()))
                .isInstanceOf(IllegalArgumentException.class);
        // A node id that cannot name a downlink topic.
        SubscriptionRecord badNode = EXACT.withNode("bad node/../x", 8);
        assertThatThrownBy(() ->
                        SubscriptionChange.decode(TopicNames.SUBSCRIPTIONS_EXACT, 0, badNode.key(), badNode.encode()))
                .isInstanceOf(IllegalArgumentException.class);
        // An invalid filter.
        assertThatThrownBy(() -> SubscriptionChange.decode(
                        TopicNames.SUBSCRIPTIONS_WILDCARD, 0, SubscriptionRecord.key("a/#/b", "c1"), null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SubscriptionChange.decode(TopicNames.PUBLISH, 0, EXACT.key(), EXACT.encode()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
