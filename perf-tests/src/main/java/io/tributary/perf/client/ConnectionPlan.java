package io.tributary.perf.client;

import io.tributary.perf.scenario.Endpoint;
import io.tributary.perf.scenario.MqttProtocol;
import io.tributary.perf.scenario.PublishPhase;

/**
 * Everything one simulated client needs: how to connect, and either what to subscribe to or what to publish.
 *
 * @param subscriber null for a publisher
 * @param publisher  null for a subscriber
 */
public record ConnectionPlan(
        String group,
        String clientId,
        Endpoint endpoint,
        MqttProtocol protocol,
        boolean cleanStart,
        long sessionExpirySeconds,
        int keepAliveSeconds,
        SubscriberPlan subscriber,
        PublisherPlan publisher) {

    /** @param subscriberId global subscriber id (stream key) */
    public record SubscriberPlan(int subscriberId, String filter, int qos) {}

    /**
     * @param publisherId global publisher id, stamped into every payload
     * @param topics      topic per slot; publishes cycle through them
     * @param rate        messages per second
     * @param phase       where in its period this publisher sends ({@link SendSchedule})
     * @param maxInflight unacknowledged QoS 1/2 publishes allowed (lowered to the broker's Receive Maximum)
     */
    public record PublisherPlan(
            int publisherId,
            String[] topics,
            int payloadSize,
            double rate,
            PublishPhase phase,
            int qos,
            int maxInflight,
            boolean retain) {}

    public boolean isPublisher() {
        return publisher != null;
    }
}
