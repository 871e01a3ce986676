package io.tributary.perf.load;

import io.tributary.perf.client.ClientEvents;
import io.tributary.perf.client.ConnectionPlan;
import io.tributary.perf.client.Connector;
import io.tributary.perf.client.MqttLoadClient;
import io.tributary.perf.client.PublishGate;
import io.tributary.perf.measure.LiveMetrics;
import io.tributary.perf.progress.RunConsole;
import io.tributary.perf.scenario.Endpoint;
import io.tributary.perf.scenario.TlsOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Opens and closes some clean connections before a run's measured ramp, on a connector and metrics of their own, so
 * nothing of it is counted. Without it the first few hundred connects of a run include the load generator's own
 * warm-up (class loading, JIT of the Netty client, its event loops' first connections): measured here as a p99 of
 * 300-550 ms against a broker whose warm p99 is a few milliseconds, whichever broker it is.
 */
final class ConnectionWarmUp {

    private static final long SETTLE_NANOS = 30_000_000_000L;
    private static final long CLOSE_NANOS = 10_000_000_000L;

    /** What the warm-up saw, printed and kept with the run's warnings when something failed. */
    record Outcome(int opened, int ready, int failed, double seconds) {}

    private ConnectionWarmUp() {}

    /**
     * @param template the run's first group: warm-up clients use its endpoints, protocol, keep alive and ramp, but
     *                 their own client ids, clean start, no session expiry, no subscription and no publishing
     */
    static Outcome run(
            int count,
            GroupPlan template,
            String runId,
            int ioThreads,
            int sourceAddresses,
            TlsOptions tls,
            boolean needsTls,
            boolean allowRemote,
            boolean proxyProtocol,
            List<Endpoint> endpoints,
            RunConsole console)
            throws InterruptedException {
        long start = System.nanoTime();
        LiveMetrics unmeasured = new LiveMetrics();
        GroupPlan plan = new GroupPlan("warm-up", false, count, template.rampPerSecond(), n -> {
            ConnectionPlan t = template.plan().apply(n);
            return new ConnectionPlan(
                    "warm-up",
                    "warm-up-" + runId + "-" + n,
                    t.endpoint(),
                    t.protocol(),
                    true,
                    0,
                    t.keepAliveSeconds(),
                    null,
                    null);
        });
        console.printf("warm-up: %d connections at %.0f/s, not measured%n", count, plan.rampPerSecond());
        try (Connector connector = new Connector(
                ioThreads, sourceAddresses, tls, needsTls, unmeasured, new PublishGate(), allowRemote, proxyProtocol)) {
            connector.prepare(endpoints);
            Outcome outcome = openAndClose(plan, connector, unmeasured, start);
            console.printf(
                    "warm-up: %d ready, %d failed, in %.1f s%n", outcome.ready(), outcome.failed(), outcome.seconds());
            return outcome;
        }
    }

    /**
     * Opens {@code plan}'s connections at its ramp, waits until each is ready or failed (30 s at most), closes them
     * all and waits for the closes (10 s at most). Only {@code unmeasured}, the connector's own metrics, counts them.
     *
     * @param start when the warm-up began (System.nanoTime), for the outcome's seconds
     */
    static Outcome openAndClose(GroupPlan plan, Connector connector, LiveMetrics unmeasured, long start)
            throws InterruptedException {
        AtomicInteger ready = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        List<MqttLoadClient> clients = new ArrayList<>(plan.count());
        ClientEvents events = new ClientEvents() {
            @Override
            public void ready(MqttLoadClient client) {
                ready.incrementAndGet();
            }

            @Override
            public void failed(MqttLoadClient client, String reason) {
                failed.incrementAndGet();
            }
        };
        long settleBy = System.nanoTime() + SETTLE_NANOS;
        int opened = ConnectionRamp.open(plan, connector, events, clients, () -> System.nanoTime() > settleBy);
        while (ready.get() + failed.get() < opened && System.nanoTime() < settleBy) {
            Thread.sleep(5);
        }
        clients.forEach(c -> c.disconnect(true));
        long closeBy = System.nanoTime() + CLOSE_NANOS;
        while (unmeasured.connected.get() > 0 && System.nanoTime() < closeBy) {
            Thread.sleep(5);
        }
        return new Outcome(opened, ready.get(), failed.get(), (System.nanoTime() - start) / 1e9);
    }
}
