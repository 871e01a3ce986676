package io.tributary.perf.load;

import io.tributary.perf.client.ConnectionPlan;
import io.tributary.perf.scenario.ClientSettings;
import io.tributary.perf.scenario.Endpoint;
import io.tributary.perf.scenario.PublisherGroup;
import io.tributary.perf.scenario.Scenario;
import io.tributary.perf.scenario.SubscriberGroup;
import io.tributary.perf.scenario.TextTemplate;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * One group's connections, made on demand (a million plans built up front would be a few hundred MB for nothing).
 */
public record GroupPlan(
        String name, boolean publishers, int count, double rampPerSecond, IntFunction<ConnectionPlan> plan) {

    public static List<GroupPlan> subscribers(Scenario scenario, String runId) {
        List<GroupPlan> plans = new ArrayList<>();
        for (SubscriberGroup g : scenario.subscribers()) {
            ClientSettings c = g.client();
            plans.add(new GroupPlan(
                    c.name(),
                    false,
                    c.count(),
                    c.rampPerSecond(),
                    n -> new ConnectionPlan(
                            c.name(),
                            g.clientIdFor(n, runId),
                            endpoint(c, n),
                            c.protocol(),
                            c.cleanStart(),
                            c.sessionExpiry().toSeconds(),
                            (int) c.keepAlive().toSeconds(),
                            new ConnectionPlan.SubscriberPlan(g.firstId() + n, g.filterFor(n, runId), c.qos()),
                            null)));
        }
        return plans;
    }

    public static List<GroupPlan> publishers(Scenario scenario, String runId) {
        List<GroupPlan> plans = new ArrayList<>();
        for (PublisherGroup g : scenario.publishers()) {
            ClientSettings c = g.client();
            plans.add(new GroupPlan(c.name(), true, c.count(), c.rampPerSecond(), n -> {
                String[] topics = new String[g.topicsPerPublisher()];
                for (int k = 0; k < topics.length; k++) {
                    topics[k] = g.topicFor(n, k, runId);
                }
                ConnectionPlan.SubscriberPlan alsoSubscribes = g.subscribes()
                        ? new ConnectionPlan.SubscriberPlan(g.firstSubscriberId() + n, g.filterFor(n, runId), c.qos())
                        : null;
                return new ConnectionPlan(
                        c.name(),
                        g.clientIdFor(n, runId),
                        endpoint(c, n),
                        c.protocol(),
                        c.cleanStart(),
                        c.sessionExpiry().toSeconds(),
                        (int) c.keepAlive().toSeconds(),
                        alsoSubscribes,
                        new ConnectionPlan.PublisherPlan(
                                g.firstId() + n,
                                topics,
                                g.payloadSize(),
                                g.rate(),
                                g.phase(),
                                c.qos(),
                                g.maxInflight(),
                                g.retain()));
            }));
        }
        return plans;
    }

    /** Groups that only connect and hold their connections. */
    public static List<GroupPlan> connections(Scenario scenario, String runId) {
        List<GroupPlan> plans = new ArrayList<>();
        for (ClientSettings c : scenario.connections()) {
            plans.add(new GroupPlan(
                    c.name(),
                    false,
                    c.count(),
                    c.rampPerSecond(),
                    n -> new ConnectionPlan(
                            c.name(),
                            c.clientId().render(new TextTemplate.Values(n, n, 0, c.name(), runId)),
                            endpoint(c, n),
                            c.protocol(),
                            c.cleanStart(),
                            c.sessionExpiry().toSeconds(),
                            (int) c.keepAlive().toSeconds(),
                            null,
                            null)));
        }
        return plans;
    }

    /** Clients spread round robin over the group's endpoints (several transport nodes, say). */
    private static Endpoint endpoint(ClientSettings c, int n) {
        return c.targets().get(n % c.targets().size());
    }
}
