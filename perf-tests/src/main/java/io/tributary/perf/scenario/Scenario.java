package io.tributary.perf.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A benchmark scenario, typed and validated (see {@link ScenarioLoader}).
 *
 * @param warmUp          publishing before measuring: messages sent then are delivered but not counted
 * @param duration        measured publishing time (for a scenario without publishers: how long connections are held)
 * @param drain           after the last measured publish, how long to wait for late deliveries and acks
 * @param sourceAddresses how many loopback source addresses (127.0.0.1, .2, ...) connections are spread over, each
 *                        with its own ~28k ephemeral ports per target; 0 = one per 25,000 connections
 * @param ioThreads       Netty event loop threads; 0 = one per core
 * @param endSessions     at the end, MQTT 5 clients with a session expiry disconnect with expiry 0 so persistent
 *                        benchmark sessions do not pile up in the broker
 * @param connections     groups that only connect and stay connected (keep alive), neither publish nor subscribe
 * @param sourceText      the YAML as read, kept in results so {@code merge} needs no file
 */
public record Scenario(
        String name,
        String description,
        Duration warmUp,
        Duration duration,
        Duration drain,
        int sourceAddresses,
        int ioThreads,
        TlsOptions tls,
        boolean endSessions,
        List<PublisherGroup> publishers,
        List<SubscriberGroup> subscribers,
        List<ClientSettings> connections,
        String sourceText) {

    public Scenario {
        publishers = List.copyOf(publishers);
        subscribers = List.copyOf(subscribers);
        connections = List.copyOf(connections);
    }

    /**
     * Assigns dense global ids: publishers 0.. in group order; subscribers 0.. over the subscriber groups, then over
     * the publisher groups that subscribe too. Called after anything that changes a count.
     */
    public static Scenario numbered(Scenario s) {
        List<SubscriberGroup> subs = new ArrayList<>();
        int nextSubscriber = 0;
        for (SubscriberGroup g : s.subscribers) {
            subs.add(g.withFirstId(nextSubscriber));
            nextSubscriber += g.client().count();
        }
        List<PublisherGroup> pubs = new ArrayList<>();
        int nextPublisher = 0;
        for (PublisherGroup g : s.publishers) {
            pubs.add(g.withIds(nextPublisher, nextSubscriber));
            nextPublisher += g.client().count();
            if (g.subscribes()) {
                nextSubscriber += g.client().count();
            }
        }
        return new Scenario(
                s.name,
                s.description,
                s.warmUp,
                s.duration,
                s.drain,
                s.sourceAddresses,
                s.ioThreads,
                s.tls,
                s.endSessions,
                pubs,
                subs,
                s.connections,
                s.sourceText);
    }

    public int publisherCount() {
        return publishers.stream().mapToInt(g -> g.client().count()).sum();
    }

    /** Clients that subscribe: subscriber groups plus publishers with a filter. */
    public int subscriberCount() {
        return subscribers.stream().mapToInt(g -> g.client().count()).sum()
                + publishers.stream()
                        .filter(PublisherGroup::subscribes)
                        .mapToInt(g -> g.client().count())
                        .sum();
    }

    public int connectionCount() {
        return publisherCount()
                + subscribers.stream().mapToInt(g -> g.client().count()).sum()
                + connections.stream().mapToInt(ClientSettings::count).sum();
    }

    /** Messages per second all publishers together aim at. */
    public double offeredRate() {
        return publishers.stream()
                .mapToDouble(g -> g.client().count() * g.rate())
                .sum();
    }

    public double publisherRampSeconds() {
        return publishers.stream().mapToDouble(g -> g.client().rampSeconds()).sum();
    }

    /** Every group pointed at these endpoints instead of its own. */
    public Scenario withTargets(List<Endpoint> targets) {
        return mapClients(c -> c.withTargets(targets));
    }

    /** Every group connecting at {@code perSecond} instead of its own ramp. */
    public Scenario withRamp(double perSecond) {
        if (perSecond <= 0) {
            throw new IllegalArgumentException("ramp must be > 0");
        }
        return mapClients(c -> c.withRamp(perSecond));
    }

    public Scenario withTiming(Duration newWarmUp, Duration newDuration) {
        return new Scenario(
                name,
                description,
                newWarmUp == null ? warmUp : newWarmUp,
                newDuration == null ? duration : newDuration,
                drain,
                sourceAddresses,
                ioThreads,
                tls,
                endSessions,
                publishers,
                subscribers,
                connections,
                sourceText);
    }

    public Scenario withMachine(int newSourceAddresses, int newIoThreads) {
        return new Scenario(
                name,
                description,
                warmUp,
                duration,
                drain,
                newSourceAddresses > 0 ? newSourceAddresses : sourceAddresses,
                newIoThreads > 0 ? newIoThreads : ioThreads,
                tls,
                endSessions,
                publishers,
                subscribers,
                connections,
                sourceText);
    }

    /** Every publisher's rate multiplied by {@code factor}: finds a broker's limit without editing the file. */
    public Scenario withRateFactor(double factor) {
        if (factor <= 0) {
            throw new IllegalArgumentException("rate factor must be > 0");
        }
        return new Scenario(
                name,
                description,
                warmUp,
                duration,
                drain,
                sourceAddresses,
                ioThreads,
                tls,
                endSessions,
                publishers.stream().map(g -> g.withRate(g.rate() * factor)).toList(),
                subscribers,
                connections,
                sourceText);
    }

    /** Every group's count multiplied by {@code factor} (at least 1 per group), ids renumbered. */
    public Scenario scaled(double factor) {
        if (factor <= 0) {
            throw new IllegalArgumentException("scale must be > 0");
        }
        if (factor == 1) {
            return this;
        }
        return numbered(mapClients(c -> c.withCount(Math.max(1, (int) Math.round(c.count() * factor)))));
    }

    private Scenario mapClients(UnaryOperator<ClientSettings> change) {
        List<PublisherGroup> pubs = publishers.stream()
                .map(g -> g.withClient(change.apply(g.client())))
                .toList();
        List<SubscriberGroup> subs = subscribers.stream()
                .map(g -> g.withClient(change.apply(g.client())))
                .toList();
        List<ClientSettings> idle = connections.stream().map(change).toList();
        return new Scenario(
                name,
                description,
                warmUp,
                duration,
                drain,
                sourceAddresses,
                ioThreads,
                tls,
                endSessions,
                pubs,
                subs,
                idle,
                sourceText);
    }
}
