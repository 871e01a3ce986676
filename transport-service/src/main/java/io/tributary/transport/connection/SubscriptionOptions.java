package io.tributary.transport.connection;

/**
 * What a connection asked for when it subscribed to one filter.
 *
 * @param subscriptionId MQTT 5 Subscription Identifier, 0 = none. Kept only here, on the node holding the
 *                       connection: it is needed only for live delivery, which this node does itself.
 */
public record SubscriptionOptions(int qos, boolean noLocal, boolean retainAsPublished, int subscriptionId) {

    public SubscriptionOptions(int qos, boolean noLocal, boolean retainAsPublished) {
        this(qos, noLocal, retainAsPublished, 0);
    }
}
