package io.tributary.perf.load;

import io.tributary.perf.scenario.Endpoint;
import io.tributary.perf.scenario.Scenario;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What one process of a {@link LoadRun} will open, worked out from the scenario and its role before anything
 * connects: the groups of each side, how many connections, from how many source addresses, to which endpoints. Kept
 * apart from LoadRun so the run itself reads as its phases.
 *
 * @param subscriberPlans the subscriber groups, then the connect-only groups (they connect first)
 * @param endpoints       every target of the scenario, in the order the file names them
 * @param tls             whether any of the endpoints uses TLS
 */
record RunPlan(
        List<GroupPlan> subscriberPlans,
        List<GroupPlan> publisherPlans,
        int planned,
        int sourceAddresses,
        Set<Endpoint> endpoints,
        boolean tls) {

    /** @throws IllegalArgumentException when the process would open more than --max-connections */
    static RunPlan of(Scenario scenario, RunOptions options) {
        Role role = options.role();
        List<GroupPlan> subscriberPlans =
                role.runsSubscribers() ? GroupPlan.subscribers(scenario, options.runId()) : List.of();
        List<GroupPlan> publisherPlans =
                role.runsPublishers() ? GroupPlan.publishers(scenario, options.runId()) : List.of();
        if (role.runsSubscribers()) {
            // Connect-only groups belong to no side; the subscribers process holds them (or "all").
            subscriberPlans = new ArrayList<>(subscriberPlans);
            subscriberPlans.addAll(GroupPlan.connections(scenario, options.runId()));
        }
        int planned = subscriberPlans.stream().mapToInt(GroupPlan::count).sum()
                + publisherPlans.stream().mapToInt(GroupPlan::count).sum();
        if (planned > options.maxConnections()) {
            throw new IllegalArgumentException("the scenario opens " + planned + " connections in this process, more"
                    + " than --max-connections " + options.maxConnections());
        }
        int sourceAddresses = scenario.sourceAddresses() > 0
                ? scenario.sourceAddresses()
                : Math.max(1, (int) Math.ceil(planned / 25_000.0));
        Set<Endpoint> endpoints = new LinkedHashSet<>();
        scenario.publishers().forEach(g -> endpoints.addAll(g.client().targets()));
        scenario.subscribers().forEach(g -> endpoints.addAll(g.client().targets()));
        scenario.connections().forEach(c -> endpoints.addAll(c.targets()));
        boolean tls = endpoints.stream().anyMatch(Endpoint::tls);
        return new RunPlan(subscriberPlans, publisherPlans, planned, sourceAddresses, endpoints, tls);
    }

    /** How long the ramps of all groups take at their configured rates, one after the other. */
    double rampSeconds() {
        return subscriberPlans.stream()
                        .mapToDouble(g -> g.count() / g.rampPerSecond())
                        .sum()
                + publisherPlans.stream()
                        .mapToDouble(g -> g.count() / g.rampPerSecond())
                        .sum();
    }
}
