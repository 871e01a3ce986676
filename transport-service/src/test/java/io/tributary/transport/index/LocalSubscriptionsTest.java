package io.tributary.transport.index;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.tributary.common.subscription.SharedTargets.Target;
import io.tributary.transport.connection.ClientCapabilities;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.SubscriptionOptions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LocalSubscriptionsTest {

    private final LocalSubscriptions subscriptions = new LocalSubscriptions();

    private static ClientConnection connection(String clientId) {
        return new ClientConnection(
                new EmbeddedChannel(),
                clientId,
                1,
                MqttVersion.MQTT_5,
                true,
                60,
                0,
                ClientCapabilities.DEFAULTS,
                10,
                null);
    }

    private Map<ClientConnection, LocalSubscriptions.Match> match(String topic, String publisher) {
        Map<ClientConnection, LocalSubscriptions.Match> out = new LinkedHashMap<>();
        subscriptions.matchPerClient(topic, publisher, (c, m) -> {
            assertThat(out.put(c, m)).as("one visit per client").isNull();
        });
        return out;
    }

    @Test
    void overlapping_filters_give_one_copy_at_the_highest_qos_with_every_identifier() {
        ClientConnection a = connection("a");
        ClientConnection b = connection("b");
        subscriptions.add(a, "s/+/t", new SubscriptionOptions(0, false, false, 7));
        subscriptions.add(a, "s/#", new SubscriptionOptions(2, false, false, 9));
        subscriptions.add(a, "s/x/t", new SubscriptionOptions(1, false, true, 0));
        subscriptions.add(b, "s/x/t", new SubscriptionOptions(1, false, false, 0));

        Map<ClientConnection, LocalSubscriptions.Match> matches = match("s/x/t", "p");
        assertThat(matches).containsOnlyKeys(a, b);
        assertThat(matches.get(a).qos()).isEqualTo(2);
        assertThat(matches.get(a).retainAsPublished()).isTrue();
        assertThat(matches.get(a).subscriptionIds()).containsExactlyInAnyOrder(7, 9);
        assertThat(matches.get(b).qos()).isEqualTo(1);
        assertThat(matches.get(b).subscriptionIds()).isEmpty();
    }

    @Test
    void no_local_skips_only_the_publishers_own_no_local_subscriptions() {
        ClientConnection self = connection("self");
        subscriptions.add(self, "n/1", new SubscriptionOptions(1, true, false, 3));
        assertThat(match("n/1", "self")).isEmpty();
        assertThat(match("n/1", "other")).containsOnlyKeys(self);

        subscriptions.add(self, "n/+", new SubscriptionOptions(0, false, false, 4));
        LocalSubscriptions.Match own = match("n/1", "self").get(self);
        assertThat(own.qos())
                .as("only the subscription without no-local counts")
                .isZero();
        assertThat(own.subscriptionIds()).containsExactly(4);
    }

    @Test
    void resubscribing_replaces_the_identifier_and_removal_forgets_the_filter() {
        ClientConnection c = connection("c");
        subscriptions.add(c, "r/1", new SubscriptionOptions(1, false, false, 5));
        subscriptions.add(c, "r/1", new SubscriptionOptions(1, false, false, 0));
        assertThat(match("r/1", null).get(c).subscriptionIds()).isEmpty();
        subscriptions.removeAll(c);
        assertThat(match("r/1", null)).isEmpty();
        assertThat(subscriptions.size()).isZero();
    }

    private Map<ClientConnection, LocalSubscriptions.Match> matchShared(String topic, List<Target> targets) {
        Map<ClientConnection, LocalSubscriptions.Match> out = new LinkedHashMap<>();
        subscriptions.matchPerClient(topic, "p", targets, (c, m) -> {
            assertThat(out.put(c, m)).as("one visit per client").isNull();
        });
        return out;
    }

    @Test
    void shared_members_get_a_message_only_when_the_router_named_them() {
        ClientConnection m1 = connection("m1");
        ClientConnection m2 = connection("m2");
        ClientConnection normal = connection("normal");
        subscriptions.add(m1, "$share/g/s/+", new SubscriptionOptions(1, false, false, 0));
        subscriptions.add(m2, "$share/g/s/+", new SubscriptionOptions(1, false, false, 0));
        subscriptions.add(normal, "s/x", new SubscriptionOptions(0, false, false, 0));

        assertThat(matchShared("s/x", List.of())).containsOnlyKeys(normal);
        assertThat(matchShared("s/x", List.of(new Target("m2", "$share/g/s/+"))))
                .containsOnlyKeys(normal, m2);
        // Another group, or the same client under another filter, does not count.
        assertThat(matchShared("s/x", List.of(new Target("m1", "$share/h/s/+"), new Target("m1", "$share/g/s/x"))))
                .containsOnlyKeys(normal);
        // The topic must still match the member's inner filter.
        assertThat(matchShared("t/x", List.of(new Target("m1", "$share/g/s/+"))))
                .isEmpty();
        // The shared filter is not a filter of its own: its literal text matches nothing.
        assertThat(matchShared("$share/g/s/x", List.of())).isEmpty();
    }

    @Test
    void a_client_in_a_group_and_subscribed_normally_gets_one_merged_copy_and_removal_is_per_filter() {
        ClientConnection c = connection("c");
        subscriptions.add(c, "$share/g/s/x", new SubscriptionOptions(2, false, false, 8));
        subscriptions.add(c, "s/x", new SubscriptionOptions(0, false, false, 0));
        assertThat(subscriptions.size()).isEqualTo(2);

        LocalSubscriptions.Match both =
                matchShared("s/x", List.of(new Target("c", "$share/g/s/x"))).get(c);
        assertThat(both.qos()).isEqualTo(2);
        assertThat(both.subscriptionIds()).containsExactly(8);

        subscriptions.remove(c, "$share/g/s/x");
        assertThat(matchShared("s/x", List.of(new Target("c", "$share/g/s/x")))
                        .get(c)
                        .qos())
                .isZero();
        subscriptions.removeAll(c);
        assertThat(subscriptions.size()).isZero();
    }

    @Test
    void filters_of_a_connection_are_counted_replaced_and_all_removed_when_it_closes() {
        ClientConnection a = connection("a");
        ClientConnection b = connection("b");
        assertThat(subscriptions.filterCount(a)).isZero();
        assertThat(subscriptions.matchOne(a, "f/1", "p", List.of()))
                .as("never subscribed")
                .isNull();

        subscriptions.add(a, "f/1", new SubscriptionOptions(0, false, false, 0));
        subscriptions.add(a, "f/1", new SubscriptionOptions(1, false, false, 0));
        subscriptions.add(a, "$share/g/f/+", new SubscriptionOptions(1, false, false, 0));
        subscriptions.add(b, "f/1", new SubscriptionOptions(0, false, false, 0));
        assertThat(subscriptions.filterCount(a))
                .as("a replaced filter counts once")
                .isEqualTo(2);
        assertThat(subscriptions.holds(a, "f/1")).isTrue();
        assertThat(subscriptions.holds(a, "f/2")).isFalse();
        assertThat(subscriptions.matchOne(a, "f/1", "p", List.of()).qos()).isEqualTo(1);

        subscriptions.remove(a, "f/1");
        assertThat(subscriptions.holds(a, "f/1")).isFalse();
        assertThat(subscriptions.filterCount(a)).isEqualTo(1);

        subscriptions.removeAll(a);
        assertThat(subscriptions.filterCount(a)).isZero();
        assertThat(subscriptions.size())
                .as("only b's filter is left in the index")
                .isEqualTo(1);
        assertThat(subscriptions.filterCount(b)).isEqualTo(1);
    }
}
