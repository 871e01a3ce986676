package io.tributary.transport.subscribe;

import io.tributary.common.session.SubscribeApi;
import java.util.List;

/** What {@link SubscribeRules} decided about one SUBSCRIBE. */
sealed interface SubscribeVerdict {

    /** A protocol error: the connection is closed with DISCONNECT 0x82 and {@code problem}, nothing is subscribed. */
    record ProtocolError(String problem) implements SubscribeVerdict {}

    /**
     * The SUBACK codes of the filters decided here, and the filters to send to session-service, whose answer fills in
     * the rest. {@code codes} and {@code problems} are the SUBACK being built: the answer adds to them.
     *
     * @param codes            one SUBACK code per requested filter; 0 for a forwarded one until session-service answers
     * @param problems         the reason string's parts, one per refused filter
     * @param forwardedIndexes the position in the SUBSCRIBE of each forwarded subscription
     * @param forwarded        the subscriptions to record, under their internal names (the tenant's namespace)
     * @param newFilters       forwarded filters the session does not hold yet (what counts against its limit)
     * @param subscriptionId   the MQTT 5 Subscription Identifier, 0 when none was given
     */
    record Forward(
            int[] codes,
            List<String> problems,
            List<Integer> forwardedIndexes,
            List<SubscribeApi.Subscription> forwarded,
            int newFilters,
            int subscriptionId)
            implements SubscribeVerdict {}
}
