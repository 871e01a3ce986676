package io.tributary.perf.scenario;

/**
 * Publishers: each one publishes {@code rate} messages per second, cycling over {@code topicsPerPublisher} topics
 * rendered from {@code topic} with {@code {k}} = 0..topicsPerPublisher-1. With a {@code filter}, each publisher also
 * subscribes (before it starts publishing) and counts what it receives like a subscriber does.
 *
 * @param phase             where in its period each publisher sends: spread (random) or aligned (all at once)
 * @param firstId           global publisher id of this group's first client (ids are unique across groups and
 *                          processes, they travel in every payload)
 * @param filter            null, or the filter each publisher subscribes to as well
 * @param firstSubscriberId global subscriber id of this group's first client when it subscribes, else -1
 */
public record PublisherGroup(
        ClientSettings client,
        TextTemplate topic,
        int topicsPerPublisher,
        int payloadSize,
        double rate,
        PublishPhase phase,
        int maxInflight,
        boolean retain,
        TextTemplate filter,
        int firstId,
        int firstSubscriberId) {

    /**
     * The smallest payload-size a scenario may ask for: the 16-byte stamp every generated payload starts with
     * (measure.Payload, which takes its size from here, so scenario does not depend on measure).
     */
    public static final int MIN_PAYLOAD_SIZE = 16;

    public PublisherGroup withClient(ClientSettings newClient) {
        return new PublisherGroup(
                newClient,
                topic,
                topicsPerPublisher,
                payloadSize,
                rate,
                phase,
                maxInflight,
                retain,
                filter,
                firstId,
                firstSubscriberId);
    }

    public PublisherGroup withRate(double newRate) {
        return new PublisherGroup(
                client,
                topic,
                topicsPerPublisher,
                payloadSize,
                newRate,
                phase,
                maxInflight,
                retain,
                filter,
                firstId,
                firstSubscriberId);
    }

    public PublisherGroup withIds(int newFirstId, int newFirstSubscriberId) {
        return new PublisherGroup(
                client,
                topic,
                topicsPerPublisher,
                payloadSize,
                rate,
                phase,
                maxInflight,
                retain,
                filter,
                newFirstId,
                filter == null ? -1 : newFirstSubscriberId);
    }

    public boolean subscribes() {
        return filter != null;
    }

    /** Topic of publisher {@code n} (index within the group), slot {@code k}. */
    public String topicFor(int n, int k, String runId) {
        return topic.render(values(n, k, runId));
    }

    /** Filter publisher {@code n} subscribes to; only when {@link #subscribes()}. */
    public String filterFor(int n, String runId) {
        return filter.render(values(n, 0, runId));
    }

    public String clientIdFor(int n, String runId) {
        return client.clientId().render(values(n, 0, runId));
    }

    private TextTemplate.Values values(int n, int k, String runId) {
        return new TextTemplate.Values(n, firstId + n, k, client.name(), runId);
    }
}
