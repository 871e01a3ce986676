package io.tributary.perf.scenario;

/**
 * Subscribers: each one subscribes to one filter rendered from {@code filter} and counts what arrives.
 *
 * @param firstId global subscriber id of this group's first client
 */
public record SubscriberGroup(ClientSettings client, TextTemplate filter, int firstId) {

    public SubscriberGroup withClient(ClientSettings newClient) {
        return new SubscriberGroup(newClient, filter, firstId);
    }

    public SubscriberGroup withFirstId(int newFirstId) {
        return new SubscriberGroup(client, filter, newFirstId);
    }

    public String filterFor(int n, String runId) {
        return filter.render(new TextTemplate.Values(n, firstId + n, 0, client.name(), runId));
    }

    public String clientIdFor(int n, String runId) {
        return client.clientId().render(new TextTemplate.Values(n, firstId + n, 0, client.name(), runId));
    }
}
