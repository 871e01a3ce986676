package io.tributary.routing.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.tributary.routing.index.SubscriptionIndex;

/** The routing service's meters, exposed on {@code /actuator/prometheus}. */
@Component
public class RoutingMetrics {

    /** Why a delivery to a node was not produced: its downlink topic does not exist (the node is gone). */
    public static final String DROP_UNKNOWN_NODE = "unknown_node";
    /** Why a publish was not routed at all: it has no key, so no MQTT topic. */
    public static final String DROP_NO_TOPIC = "no_topic";

    private final MeterRegistry registry;
    private final Counter publishesIn;
    private final Counter deliveriesOut;
    private final Counter malformedSubscriptions;
    private final Timer produceLatency;
    private final Map<String, Counter> dropped = new ConcurrentHashMap<>();

    public RoutingMetrics(MeterRegistry registry, SubscriptionIndex index) {
        this.registry = registry;
        publishesIn = Counter.builder("tributary.routing.publishes.in")
                .description("Publish records routed (counted once their outputs are acknowledged)")
                .register(registry);
        deliveriesOut = Counter.builder("tributary.routing.deliveries.out")
                .description("Records acknowledged on downlink topics")
                .register(registry);
        malformedSubscriptions = Counter.builder("tributary.routing.subscriptions.malformed")
                .description("Subscription feed records skipped because they could not be decoded")
                .register(registry);
        produceLatency = Timer.builder("tributary.kafka.produce.latency")
                .description("Time from send to acknowledgement of a produced record")
                .tag("service", "routing")
                .register(registry);
        dropped(DROP_UNKNOWN_NODE);
        Gauge.builder("tributary.routing.index.exact.filters", index, SubscriptionIndex::exactFilterCount)
                .description("Distinct exact filters of the owned partitions").register(registry);
        Gauge.builder("tributary.routing.index.wildcard.filters", index, SubscriptionIndex::wildcardFilterCount)
                .description("Distinct wildcard filters").register(registry);
        Gauge.builder("tributary.routing.index.offline", index, SubscriptionIndex::offlineCount)
                .description("Indexed subscriptions of offline sessions (not routed yet)").register(registry);
        Gauge.builder("tributary.routing.partitions.owned", index, i -> i.ownedPartitions().size())
                .description("Publish partitions this router owns").register(registry);
    }

    public void publishesRouted(int count) {
        publishesIn.increment(count);
    }

    public void delivered(long sendStartNanos) {
        deliveriesOut.increment();
        produceLatency.record(System.nanoTime() - sendStartNanos, TimeUnit.NANOSECONDS);
    }

    public void dropped(String reason, int count) {
        dropped(reason).increment(count);
    }

    public void malformedSubscription() {
        malformedSubscriptions.increment();
    }

    private Counter dropped(String reason) {
        return dropped.computeIfAbsent(reason, r -> Counter.builder("tributary.routing.dropped")
                .description("Deliveries or publishes not routed, by reason")
                .tag("reason", r)
                .register(registry));
    }
}
