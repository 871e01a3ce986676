package io.tributary.perf.load;

import io.tributary.perf.client.ConnectionPlan;
import io.tributary.perf.client.Connector;
import io.tributary.perf.client.LoopbackResponder;
import io.tributary.perf.client.PublishGate;
import io.tributary.perf.client.SelfWarmUp;
import io.tributary.perf.measure.LiveMetrics;
import io.tributary.perf.progress.RunConsole;
import io.tributary.perf.scenario.Endpoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Warms the generator's own code before a run without touching the broker. Messages: {@link SelfWarmUp}, in
 * memory. Connections: clients shaped like the run's (the
 * protocol, keep alive and subscription of each group in turn) connect to an in-process {@link LoopbackResponder}
 * through a {@link Connector} of their own, get CONNACK and SUBACK, and disconnect. Without it the first connect of
 * a run carried the generator's own class loading and JIT: 140 ms against the machine's Mosquitto, whose next ones
 * took 1.5-5 ms, and in {@code compare} only the first target paid it (the later ones ran on a warm generator).
 */
final class GeneratorWarmUp {

    private static final double RAMP_PER_SECOND = 2_000;

    private GeneratorWarmUp() {}

    /** Passes {@code count} PUBLISH packets through the client code in memory ({@link SelfWarmUp}). */
    static void messages(int count, RunConsole console) {
        long begin = System.nanoTime();
        long passed = SelfWarmUp.run(count);
        console.line(String.format(
                Locale.ROOT,
                "generator self warm-up: %d messages through its own code in memory in %.1f s (none to the broker)",
                passed,
                (System.nanoTime() - begin) / 1e9));
    }

    /**
     * Opens {@code count} connections to the responder, shaped after the subscriber groups, then the publisher
     * groups, in turn; none to the broker.
     */
    static ConnectionWarmUp.Outcome connections(
            int count, List<GroupPlan> subscribers, List<GroupPlan> publishers, int ioThreads, RunConsole console)
            throws InterruptedException {
        long start = System.nanoTime();
        List<GroupPlan> groups = new ArrayList<>(subscribers);
        groups.addAll(publishers);
        if (groups.isEmpty() || count <= 0) {
            return new ConnectionWarmUp.Outcome(0, 0, 0, 0);
        }
        LiveMetrics scratch = new LiveMetrics();
        try (LoopbackResponder responder = LoopbackResponder.start();
                Connector connector =
                        new Connector(ioThreads, 1, null, false, scratch, new PublishGate(), false, false)) {
            Endpoint local = new Endpoint("127.0.0.1", responder.port(), false);
            GroupPlan plan = new GroupPlan("self-warm-up", false, count, RAMP_PER_SECOND, n -> {
                ConnectionPlan like = groups.get(n % groups.size()).plan().apply(0);
                ConnectionPlan.SubscriberPlan subscription = like.subscriber() == null
                        ? null
                        : new ConnectionPlan.SubscriberPlan(
                                0, like.subscriber().filter(), like.subscriber().qos());
                return new ConnectionPlan(
                        "self-warm-up",
                        "self-warm-up-" + n,
                        local,
                        like.protocol(),
                        true,
                        0,
                        like.keepAliveSeconds(),
                        subscription,
                        null);
            });
            ConnectionWarmUp.Outcome outcome = ConnectionWarmUp.openAndClose(plan, connector, scratch, start);
            console.line(String.format(
                    Locale.ROOT,
                    "generator self warm-up: %d of %d connections ready through its own connect path in %.1f s (none"
                            + " to the broker)",
                    outcome.ready(),
                    outcome.opened(),
                    outcome.seconds()));
            return outcome;
        }
    }
}
