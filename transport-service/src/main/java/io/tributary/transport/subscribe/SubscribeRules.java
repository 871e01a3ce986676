package io.tributary.transport.subscribe;

import io.netty.handler.codec.mqtt.MqttQoS;
import io.netty.handler.codec.mqtt.MqttReasonCodes.SubAck;
import io.netty.handler.codec.mqtt.MqttSubscriptionOption;
import io.netty.handler.codec.mqtt.MqttTopicSubscription;
import io.tributary.common.acl.TopicPermissions;
import io.tributary.common.session.SubscribeApi;
import io.tributary.common.tenant.TenantNamespace;
import io.tributary.common.topic.SharedFilters;
import io.tributary.common.topic.TopicFilters;
import io.tributary.transport.acl.ReadPermission;
import io.tributary.transport.replay.ReplayRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * What becomes of each filter of a SUBSCRIBE before session-service is asked: the protocol errors that close the
 * connection, the SUBACK refusals decided locally (malformed filter, too many levels, ACL, subscription limit,
 * replay) and the subscriptions to forward. No I/O: the outcome depends only on the facts given and on what the
 * {@link Checks} answer, asked in filter order; the handler carries it out.
 */
final class SubscribeRules {

    /** MQTT 3.1.1 SUBACK Failure (section 3.9.3): the one refusal 3.x has, so every MQTT 5 refusal becomes it. */
    static final int FAILURE_V3 = MqttQoS.FAILURE.value();

    private static final int TOPIC_FILTER_INVALID = Byte.toUnsignedInt(SubAck.TOPIC_FILTER_INVALID.byteValue());
    private static final int NOT_AUTHORIZED = Byte.toUnsignedInt(SubAck.NOT_AUTHORIZED.byteValue());
    private static final int QUOTA_EXCEEDED = Byte.toUnsignedInt(SubAck.QUOTA_EXCEEDED.byteValue());

    /**
     * What the rules ask of the connection's state while they go through the filters. The limit checks count and log
     * their refusals themselves ({@code ClientLimits}), so they are asked exactly where the filter is decided.
     */
    interface Checks {
        /** True when {@code filter} has more levels than allowed (the refusal is counted and logged). */
        boolean tooManyLevels(String filter);

        /** True when the session already holds a subscription to {@code internalFilter}. */
        boolean holds(String internalFilter);

        /** A filter refused by the ACL or as reserved (counted, and logged once per connection). */
        void denied(String filter);

        /** A new filter refused because the session holds the maximum (counted and logged). */
        void overSubscriptionLimit(String filter);
    }

    /**
     * @param subscriptionsLeft how many new filters the session may still take
     * @param maxTopicLevels    the limit {@link Checks#tooManyLevels} applies, for the reason string
     * @param replay            the replay the SUBSCRIBE asks for, or null when none (always null for MQTT 3.x)
     */
    record Facts(
            boolean mqtt5,
            List<MqttTopicSubscription> requested,
            int subscriptionId,
            ReplayRequest.Verdict replay,
            int subscriptionsLeft,
            int maxTopicLevels,
            TenantNamespace namespace,
            TopicPermissions permissions) {}

    private SubscribeRules() {}

    /**
     * The checks of the packet as a whole, before any filter is looked at or a replay is considered.
     *
     * @param subscriptionIds the values of the Subscription Identifier properties (MQTT 5; empty for 3.x)
     * @return the protocol error, or null when there is none
     */
    static SubscribeVerdict.ProtocolError packetProblem(int filterCount, List<Integer> subscriptionIds) {
        if (filterCount == 0) {
            // MQTT 3.1.1 section 3.8.3 / 5.0 section 3.8.3: at least one filter; the decoder lets an empty one through.
            return new SubscribeVerdict.ProtocolError("SUBSCRIBE without topic filters");
        }
        if (subscriptionIds.size() > 1) {
            // MQTT 5 section 3.8.2.1.2: at most one identifier, and never 0.
            return new SubscribeVerdict.ProtocolError("SUBSCRIBE with more than one Subscription Identifier");
        }
        if (subscriptionIds.size() == 1 && subscriptionIds.get(0) == 0) {
            return new SubscribeVerdict.ProtocolError("SUBSCRIBE with Subscription Identifier 0");
        }
        return null;
    }

    /** Decides each filter in order; stops at the first protocol error. */
    static SubscribeVerdict decide(Facts facts, Checks checks) {
        List<MqttTopicSubscription> requested = facts.requested();
        ReplayRequest.Verdict replay = facts.replay();
        int[] codes = new int[requested.size()];
        List<String> problems = new ArrayList<>();
        List<Integer> forwardedIndexes = new ArrayList<>();
        List<SubscribeApi.Subscription> forwarded = new ArrayList<>();
        int newFilters = 0;
        for (int i = 0; i < requested.size(); i++) {
            MqttTopicSubscription s = requested.get(i);
            String filter = s.topicFilter();
            boolean sharedFilter = SharedFilters.isShared(filter);
            if (sharedFilter && facts.mqtt5() && s.option().isNoLocal()) {
                // MQTT 5 section 3.8.3.1: No Local on a shared subscription is a protocol error.
                return new SubscribeVerdict.ProtocolError("No Local set on the shared subscription '" + filter + "'");
            }
            int refusal = refusal(facts, checks, filter, sharedFilter, newFilters, problems);
            if (refusal != 0) {
                codes[i] = facts.mqtt5() ? refusal : FAILURE_V3;
                continue;
            }
            if (replay != null && (replay.refused() || sharedFilter)) {
                // Not subscribed either: a subscriber asking for history must not take live traffic alone for it.
                codes[i] = replay.refused() ? replay.code() : ReplayRequest.NOT_ACCEPTED;
                problems.add("'" + filter + "': "
                        + (replay.refused() ? replay.problem() : "replay is not offered for shared subscriptions"));
                continue;
            }
            // Stored, routed and indexed under its internal name (mounted in the tenant's namespace).
            String internal = facts.namespace().filter(filter);
            if (!checks.holds(internal)) {
                newFilters++;
            }
            forwardedIndexes.add(i);
            forwarded.add(subscription(facts, internal, s.option()));
        }
        return new SubscribeVerdict.Forward(
                codes, problems, forwardedIndexes, forwarded, newFilters, facts.subscriptionId());
    }

    /**
     * The MQTT 5 SUBACK code of a filter refused before any replay is considered, its reason added to
     * {@code problems}; 0 when it is not refused.
     */
    private static int refusal(
            Facts facts, Checks checks, String filter, boolean sharedFilter, int newFilters, List<String> problems) {
        String problem = sharedFilter ? SharedFilters.problem(filter) : TopicFilters.topicFilterProblem(filter);
        if (problem != null) {
            problems.add("'" + filter + "': " + problem);
            return TOPIC_FILTER_INVALID;
        }
        if (checks.tooManyLevels(filter)) {
            problems.add("'" + filter + "': more than " + facts.maxTopicLevels() + " levels");
            return TOPIC_FILTER_INVALID;
        }
        if (!ReadPermission.maySubscribe(facts.permissions(), filter)) {
            // $tenant/... holds the tenants' namespaces: nobody subscribes there by name, whatever the ACL.
            // Refused here and never sent to session-service, so it is neither stored nor ever matched.
            problems.add("'" + filter + "': not authorized");
            checks.denied(filter);
            return NOT_AUTHORIZED;
        }
        if (!checks.holds(facts.namespace().filter(filter)) && newFilters >= facts.subscriptionsLeft()) {
            // Replacing a subscription the session holds is always allowed; only new ones count.
            problems.add("'" + filter + "': subscription limit reached");
            checks.overSubscriptionLimit(filter);
            return QUOTA_EXCEEDED;
        }
        return 0;
    }

    private static SubscribeApi.Subscription subscription(Facts facts, String internal, MqttSubscriptionOption o) {
        boolean v5 = facts.mqtt5();
        return new SubscribeApi.Subscription(
                internal,
                o.qos().value(),
                v5 && o.isNoLocal(),
                v5 && o.isRetainAsPublished(),
                v5 ? o.retainHandling().value() : 0,
                facts.subscriptionId() == 0 ? null : facts.subscriptionId());
    }
}
