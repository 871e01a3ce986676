package io.tributary.transport.subscribe;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.mqtt.MqttQoS;
import io.netty.handler.codec.mqtt.MqttSubscriptionOption;
import io.netty.handler.codec.mqtt.MqttTopicSubscription;
import io.tributary.common.acl.TopicPermissions;
import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.SubscribeApi;
import io.tributary.common.tenant.TenantNamespace;
import io.tributary.transport.replay.ReplayRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The SUBSCRIBE rules on their own: which filters are refused locally, with which code, and what is forwarded. */
class SubscribeRulesTest {

    private static final int TOPIC_FILTER_INVALID = 0x8F;
    private static final int NOT_AUTHORIZED = 0x87;
    private static final int QUOTA_EXCEEDED = 0x97;
    private static final int FAILURE_V3 = 0x80;

    /** Records what the rules report and answers from fixed sets. */
    private static final class FakeChecks implements SubscribeRules.Checks {
        final Set<String> deep;
        final Set<String> held;
        final List<String> reported = new ArrayList<>();

        FakeChecks(Set<String> deep, Set<String> held) {
            this.deep = deep;
            this.held = held;
        }

        @Override
        public boolean tooManyLevels(String filter) {
            if (deep.contains(filter)) {
                reported.add("levels " + filter);
                return true;
            }
            return false;
        }

        @Override
        public boolean holds(String internalFilter) {
            return held.contains(internalFilter);
        }

        @Override
        public void denied(String filter) {
            reported.add("denied " + filter);
        }

        @Override
        public void overSubscriptionLimit(String filter) {
            reported.add("limit " + filter);
        }
    }

    private final FakeChecks checks = new FakeChecks(Set.of("a/b/c/d"), Set.of());

    private static MqttTopicSubscription sub(String filter, int qos) {
        return new MqttTopicSubscription(filter, MqttSubscriptionOption.onlyFromQos(MqttQoS.valueOf(qos)));
    }

    private static MqttTopicSubscription noLocal(String filter) {
        return new MqttTopicSubscription(
                filter,
                new MqttSubscriptionOption(
                        MqttQoS.AT_LEAST_ONCE,
                        true,
                        true,
                        MqttSubscriptionOption.RetainedHandlingPolicy.DONT_SEND_AT_SUBSCRIBE));
    }

    private static SubscribeRules.Facts facts(boolean v5, List<MqttTopicSubscription> requested) {
        return new SubscribeRules.Facts(
                v5, requested, 0, null, Integer.MAX_VALUE, 3, TenantNamespace.GLOBAL, TopicPermissions.UNRESTRICTED);
    }

    private SubscribeVerdict.Forward forward(SubscribeRules.Facts facts) {
        return (SubscribeVerdict.Forward) SubscribeRules.decide(facts, checks);
    }

    @Test
    void aSubscribeWithoutFiltersOrWithABadSubscriptionIdentifierIsAProtocolError() {
        assertThat(SubscribeRules.packetProblem(0, List.of()).problem()).isEqualTo("SUBSCRIBE without topic filters");
        assertThat(SubscribeRules.packetProblem(1, List.of(1, 2)).problem())
                .isEqualTo("SUBSCRIBE with more than one Subscription Identifier");
        assertThat(SubscribeRules.packetProblem(1, List.of(0)).problem())
                .isEqualTo("SUBSCRIBE with Subscription Identifier 0");
        assertThat(SubscribeRules.packetProblem(1, List.of(7))).isNull();
        assertThat(SubscribeRules.packetProblem(1, List.of())).isNull();
    }

    @Test
    void noLocalOnASharedSubscriptionIsAProtocolErrorInMqtt5Only() {
        List<MqttTopicSubscription> requested = List.of(sub("x", 0), noLocal("$share/g/t"));
        assertThat(SubscribeRules.decide(facts(true, requested), checks))
                .isEqualTo(new SubscribeVerdict.ProtocolError("No Local set on the shared subscription '$share/g/t'"));
        // MQTT 3.x has no No Local: the flag is not read, and the shared subscription is forwarded.
        assertThat(forward(facts(false, requested)).forwarded()).hasSize(2);
    }

    @Test
    void locallyRefusedFiltersGetTheirCodeAndReasonAndAreNotForwarded() {
        TopicPermissions acl = TopicPermissions.of(new ConnectApi.Acl(List.of(), List.of("a/#", "$share/g/a/#")));
        SubscribeRules.Facts facts = new SubscribeRules.Facts(
                true,
                List.of(sub("a/+", 1), sub("a/#/x", 0), sub("a/b/c/d", 0), sub("b", 0), sub("$tenant/x/a", 0)),
                0,
                null,
                Integer.MAX_VALUE,
                3,
                TenantNamespace.GLOBAL,
                acl);

        SubscribeVerdict.Forward forward = forward(facts);

        assertThat(forward.codes())
                .containsExactly(0, TOPIC_FILTER_INVALID, TOPIC_FILTER_INVALID, NOT_AUTHORIZED, NOT_AUTHORIZED);
        assertThat(forward.problems()).hasSize(4);
        assertThat(forward.problems().get(1)).isEqualTo("'a/b/c/d': more than 3 levels");
        assertThat(forward.problems().get(2)).isEqualTo("'b': not authorized");
        assertThat(forward.forwardedIndexes()).containsExactly(0);
        assertThat(checks.reported).containsExactly("levels a/b/c/d", "denied b", "denied $tenant/x/a");
    }

    @Test
    void mqtt3RefusalsAreAllFailure() {
        SubscribeVerdict.Forward forward = forward(facts(false, List.of(sub("a/#/x", 0), sub("a/b/c/d", 1))));
        assertThat(forward.codes()).containsExactly(FAILURE_V3, FAILURE_V3);
        assertThat(forward.forwarded()).isEmpty();
    }

    @Test
    void onlyNewFiltersCountAgainstTheSubscriptionLimit() {
        FakeChecks holding = new FakeChecks(Set.of(), Set.of("held"));
        SubscribeRules.Facts facts = new SubscribeRules.Facts(
                true,
                List.of(sub("new1", 0), sub("held", 0), sub("new2", 0)),
                0,
                null,
                1,
                0,
                TenantNamespace.GLOBAL,
                TopicPermissions.UNRESTRICTED);

        SubscribeVerdict.Forward forward = (SubscribeVerdict.Forward) SubscribeRules.decide(facts, holding);

        assertThat(forward.codes()).containsExactly(0, 0, QUOTA_EXCEEDED);
        assertThat(forward.problems()).containsExactly("'new2': subscription limit reached");
        assertThat(forward.newFilters()).isEqualTo(1);
        assertThat(holding.reported).containsExactly("limit new2");
    }

    @Test
    void aRefusedReplayRefusesEveryValidFilterAndASharedOneIsNotOfferedReplay() {
        ReplayRequest.Verdict refused = new ReplayRequest.Verdict(null, ReplayRequest.QUOTA_EXCEEDED, "too many");
        SubscribeVerdict.Forward whenRefused = forward(new SubscribeRules.Facts(
                true,
                List.of(sub("a", 0), sub("a/#/x", 0)),
                0,
                refused,
                10,
                0,
                TenantNamespace.GLOBAL,
                TopicPermissions.UNRESTRICTED));
        assertThat(whenRefused.codes()).containsExactly(ReplayRequest.QUOTA_EXCEEDED, TOPIC_FILTER_INVALID);
        assertThat(whenRefused.problems().get(0)).isEqualTo("'a': too many");
        assertThat(whenRefused.forwarded()).isEmpty();

        ReplayRequest.Verdict granted = new ReplayRequest.Verdict(new ReplayRequest(null, 5), 0, null);
        SubscribeVerdict.Forward whenGranted = forward(new SubscribeRules.Facts(
                true,
                List.of(sub("a", 0), sub("$share/g/a", 0)),
                0,
                granted,
                10,
                0,
                TenantNamespace.GLOBAL,
                TopicPermissions.UNRESTRICTED));
        assertThat(whenGranted.codes()).containsExactly(0, ReplayRequest.NOT_ACCEPTED);
        assertThat(whenGranted.problems())
                .containsExactly("'$share/g/a': replay is not offered for shared subscriptions");
        assertThat(whenGranted.forwardedIndexes()).containsExactly(0);
    }

    @Test
    void forwardedSubscriptionsCarryTheInternalNameTheOptionsAndTheIdentifier() {
        SubscribeRules.Facts facts = new SubscribeRules.Facts(
                true,
                List.of(noLocal("t/1")),
                42,
                null,
                10,
                0,
                TenantNamespace.of("blue"),
                TopicPermissions.UNRESTRICTED);

        SubscribeVerdict.Forward forward = forward(facts);

        assertThat(forward.forwarded())
                .containsExactly(
                        new SubscribeApi.Subscription(TenantNamespace.of("blue").filter("t/1"), 1, true, true, 2, 42));
        assertThat(forward.subscriptionId()).isEqualTo(42);

        SubscribeVerdict.Forward v3 = forward(new SubscribeRules.Facts(
                false, List.of(noLocal("t/1")), 0, null, 10, 0, TenantNamespace.GLOBAL, TopicPermissions.UNRESTRICTED));
        assertThat(v3.forwarded()).containsExactly(new SubscribeApi.Subscription("t/1", 1, false, false, 0, null));
    }
}
