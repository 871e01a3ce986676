package io.tributary.perf.load;

import io.tributary.perf.client.ClientEvents;
import io.tributary.perf.client.Connector;
import io.tributary.perf.client.MqttLoadClient;
import io.tributary.perf.client.PublishGate;
import io.tributary.perf.measure.Clock;
import io.tributary.perf.measure.LiveMetrics;
import io.tributary.perf.measure.ProcessSampler;
import io.tributary.perf.progress.RunConsole;
import io.tributary.perf.report.LatencyLogs;
import io.tributary.perf.report.RunResult;
import io.tributary.perf.scenario.Scenario;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * One run of a scenario by one process: connect (subscribers first, at their ramp), publish through warm-up and the
 * measured window, drain, disconnect, and assemble the {@link RunResult}. Bounded: every wait has a deadline, and
 * the whole run one more, after which it stops by itself.
 */
public final class LoadRun {

    private static final Duration SETTLE_AFTER_CONNECT = RunSchedule.SETTLE_AFTER_CONNECT;
    private static final Duration READY_GRACE = Duration.ofSeconds(40);
    private static final Duration CLOSE_GRACE = Duration.ofSeconds(10);
    private static final Duration WARM_UP_SETTLE = Duration.ofSeconds(2);
    /** Held publishers' first sends are due this long after their start is handed to their event loops. */
    private static final Duration MEASURED_START_LEAD = Duration.ofMillis(50);
    /** Messages the generator passes through its own code in memory before a run without warm-up (SelfWarmUp). */
    private static final int SELF_WARM_UP_MESSAGES = 60_000;
    /** Connections the generator opens to an in-process responder before a run (GeneratorWarmUp), unless told to
     * warm up against the broker (--warm-up-connections). */
    private static final int SELF_WARM_UP_CONNECTIONS = 1_000;

    private static final int MAX_FAILURE_REASONS = 20;

    private final Scenario scenario;
    private final RunOptions options;
    private final RunConsole console;
    private final LatencyLogs latencyLogs;
    private final LiveMetrics metrics = new LiveMetrics();
    private final PublishGate gate = new PublishGate();
    private final List<MqttLoadClient> clients = new ArrayList<>();
    private final Map<String, LongAdder> failureReasons = new ConcurrentHashMap<>();
    private final AtomicInteger settled = new AtomicInteger();
    private final AtomicLong lastReadyNanos = new AtomicLong();
    private final List<String> warnings = new ArrayList<>();
    private final RunSchedule schedule;
    private final PublishStart publishStart;
    private long hardDeadlineNanos;

    /** A run that prints plain progress lines to {@code console} and writes no latency logs. */
    public LoadRun(Scenario scenario, RunOptions options, PrintStream console) {
        this(scenario, options, RunConsole.lines(console), LatencyLogs.none());
    }

    /** @param latencyLogs receives every sampled interval of the latency histograms; the caller closes it */
    public LoadRun(Scenario scenario, RunOptions options, RunConsole console, LatencyLogs latencyLogs) {
        this.scenario = scenario;
        this.options = options;
        this.console = console;
        this.latencyLogs = latencyLogs;
        this.schedule = RunSchedule.of(scenario, options.role(), settled::get);
        this.publishStart = new PublishStart(scenario.warmUp().isZero(), System.nanoTime());
    }

    /** How long a run of this scenario and role is planned to take, before it starts. */
    public static Duration plannedLength(Scenario scenario, Role role) {
        return Duration.ofMillis((long) (RunSchedule.estimatedSeconds(scenario, role) * 1000));
    }

    public RunResult run() throws InterruptedException {
        try {
            return runBounded();
        } finally {
            console.done();
        }
    }

    private RunResult runBounded() throws InterruptedException {
        RunPlan plan = RunPlan.of(scenario, options);
        String limitWarning = FileLimits.warning(plan.planned(), FileLimits.current());
        if (limitWarning != null) {
            warn(limitWarning);
        }
        Duration budget = budget(plan);
        hardDeadlineNanos = System.nanoTime() + budget.toNanos();

        List<Long> brokerPids = BrokerProcesses.resolve(options.brokerPids(), options.brokerPatterns(), this::warn);
        ProcessSampler broker = new ProcessSampler(brokerPids);
        broker.labels().values().forEach(l -> console.line("sampling broker process " + l));
        ProcessSampler self = new ProcessSampler(List.of(ProcessHandle.current().pid()));
        warmUp(plan, budget);
        Instant started = Instant.now();
        console.printf(
                "run %s: scenario %s, role %s, target %s, %d connections (%d source addresses), budget %ds%n",
                options.runId(),
                scenario.name(),
                options.role().label(),
                plan.endpoints(),
                plan.planned(),
                plan.sourceAddresses(),
                budget.toSeconds());

        RunFacts facts = new RunFacts();
        facts.loadAverageStart = ResultAssembler.loadAverage();
        ProcessSampler.Usage baseline = broker.sample();
        facts.rssBaseline = baseline.rssBytes();
        facts.rssBaselineByPid = baseline.rssByPid();
        try (Connector connector = connector(plan);
                RunSampler sampler = sampler(broker, self)) {
            connector.prepare(List.copyOf(plan.endpoints()));
            facts.epoll = connector.usesEpoll();
            schedule.enter("connecting");
            sampler.start();
            connectAll(plan, connector, facts);
            sleepBounded(SETTLE_AFTER_CONNECT);
            ProcessSampler.Usage loaded = broker.sample();
            facts.rssLoaded = loaded.rssBytes();
            facts.rssLoadedByPid = loaded.rssByPid();
            facts.connectionsAtLoaded = metrics.connected.get();
            runLoadPhase(plan, sampler, facts);
            closeAll(sampler, facts);
        }
        if (pastDeadline()) {
            warn("the run hit its time budget of " + budget.toSeconds() + " s and was cut short");
        }
        facts.planned = plan.planned();
        facts.started = started;
        facts.brokerLabels = List.copyOf(broker.labels().values());
        facts.brokerLabelsByPid = broker.labels();
        facts.failureReasons = failureReasons;
        facts.warnings = warnings;
        return ResultAssembler.assemble(scenario, options, metrics, clients, facts);
    }

    /** Warms up before anything is measured; the deadline starts again after the warm-up connections. */
    private void warmUp(RunPlan plan, Duration budget) throws InterruptedException {
        if (options.warmUpConnections() > 0) {
            warmUpConnections(plan);
        } else {
            // Connect latency is measured from the first connect: the generator's own cold start must not be in it.
            GeneratorWarmUp.connections(
                    SELF_WARM_UP_CONNECTIONS,
                    plan.subscriberPlans(),
                    plan.publisherPlans(),
                    scenario.ioThreads(),
                    console);
        }
        hardDeadlineNanos = System.nanoTime() + budget.toNanos();
        if (scenario.warmUp().isZero() && !scenario.publishers().isEmpty()) {
            // Measured from the first message: the generator's JIT must not be what the first second shows.
            GeneratorWarmUp.messages(SELF_WARM_UP_MESSAGES, console);
        }
    }

    /** The whole run's time budget: every phase at its planned length, plus the grace periods of the waits. */
    private Duration budget(RunPlan plan) {
        return Duration.ofMillis((long) (plan.rampSeconds() * 1000))
                .plus(READY_GRACE.multipliedBy(2))
                .plus(SETTLE_AFTER_CONNECT)
                .plus(scenario.warmUp())
                .plus(scenario.duration())
                .plus(scenario.drain())
                .plus(CLOSE_GRACE)
                .plus(options.role() == Role.SUBSCRIBERS ? waitForPublishersSlack() : Duration.ZERO);
    }

    private Connector connector(RunPlan plan) {
        return new Connector(
                scenario.ioThreads(),
                plan.sourceAddresses(),
                scenario.tls(),
                plan.tls(),
                metrics,
                gate,
                options.allowRemote(),
                options.proxyProtocol());
    }

    private RunSampler sampler(ProcessSampler broker, ProcessSampler self) {
        return new RunSampler(
                metrics,
                broker,
                self,
                schedule,
                console,
                latencyLogs,
                "perf run " + options.runId() + ": scenario " + scenario.name() + ", role "
                        + options.role().label()
                        + (options.label() != null ? ", target " + options.label() : ""));
    }

    /** Opens the subscriber side first and waits for it to settle, so no publish goes out before it can arrive. */
    private void connectAll(RunPlan plan, Connector connector, RunFacts facts) throws InterruptedException {
        ClientEvents events = events();
        long rampStart = System.nanoTime();
        int opened = 0;
        for (GroupPlan g : plan.subscriberPlans()) {
            opened += ConnectionRamp.open(g, connector, events, clients, this::pastDeadline);
        }
        awaitSettled(opened);
        for (GroupPlan g : plan.publisherPlans()) {
            opened += ConnectionRamp.open(g, connector, events, clients, this::pastDeadline);
        }
        awaitSettled(opened);
        facts.rampSeconds = lastReadyNanos.get() == 0 ? 0 : (lastReadyNanos.get() - rampStart) / 1e9;
        facts.established = metrics.ready.get();
    }

    /**
     * Between connect and close: publishers warm up, measure and drain; a subscribers-only process receives until
     * the publishers are done; a process with nothing to publish or await holds its connections for the duration.
     */
    private void runLoadPhase(RunPlan plan, RunSampler sampler, RunFacts facts) throws InterruptedException {
        if (!plan.publisherPlans().isEmpty()) {
            long measureStart;
            if (publishStart.holdsUntilMeasured()) {
                measureStart = System.nanoTime() + MEASURED_START_LEAD.toNanos();
                openMeasuredWindow(measureStart);
                publishStart.release(measureStart);
            } else {
                schedule.enter("warm-up");
                sleepBounded(scenario.warmUp());
                measureStart = System.nanoTime();
                openMeasuredWindow(measureStart);
            }
            schedule.enter("measure");
            sleepBounded(Duration.ofNanos(measureStart + scenario.duration().toNanos() - System.nanoTime()));
            gate.set(PublishGate.State.CLOSED);
            facts.measuredSeconds = (System.nanoTime() - measureStart) / 1e9;
            schedule.enter("drain");
            drain(sampler);
        } else if (options.role() == Role.SUBSCRIBERS && !scenario.publishers().isEmpty()) {
            schedule.enter("receiving");
            awaitPublishersDone(sampler);
            facts.measuredSeconds = sampler.measuredReceiveSpan();
        } else {
            schedule.enter("hold");
            long holdStart = System.nanoTime();
            sleepBounded(scenario.duration());
            facts.measuredSeconds = (System.nanoTime() - holdStart) / 1e9;
        }
    }

    /** Disconnects every client, waits at most CLOSE_GRACE for them to go, and stops the sampler. */
    private void closeAll(RunSampler sampler, RunFacts facts) throws InterruptedException {
        gate.set(PublishGate.State.CLOSED);
        schedule.enter("closing");
        clients.forEach(c -> c.disconnect(scenario.endSessions()));
        long closeDeadline = System.nanoTime() + CLOSE_GRACE.toNanos();
        while (metrics.connected.get() > 0 && System.nanoTime() < closeDeadline) {
            Thread.sleep(50);
        }
        facts.peakConnected = sampler.peakConnected();
        facts.cpuByPid = sampler.loadedCpuByPid();
        sampler.close();
        facts.samples = sampler.samples();
        facts.elapsedSeconds = sampler.elapsedSeconds();
    }

    private ClientEvents events() {
        return new ClientEvents() {
            @Override
            public void ready(MqttLoadClient client) {
                settled.incrementAndGet();
                lastReadyNanos.set(System.nanoTime());
                if (client.plan().isPublisher()) {
                    publishStart.ready(client);
                }
            }

            @Override
            public void failed(MqttLoadClient client, String reason) {
                settled.incrementAndGet();
                if (failureReasons.size() < MAX_FAILURE_REASONS || failureReasons.containsKey(reason)) {
                    failureReasons.computeIfAbsent(reason, r -> new LongAdder()).increment();
                }
            }
        };
    }

    /**
     * Opens and closes the unmeasured warm-up connections ({@link ConnectionWarmUp}), then gives the broker a moment
     * to finish their disconnects so they do not compete with the measured ramp.
     */
    private void warmUpConnections(RunPlan plan) throws InterruptedException {
        List<GroupPlan> groups = new ArrayList<>(plan.subscriberPlans());
        groups.addAll(plan.publisherPlans());
        if (groups.isEmpty()) {
            return;
        }
        ConnectionWarmUp.Outcome outcome = ConnectionWarmUp.run(
                options.warmUpConnections(),
                groups.get(0),
                options.runId(),
                scenario.ioThreads(),
                plan.sourceAddresses(),
                scenario.tls(),
                plan.tls(),
                options.allowRemote(),
                options.proxyProtocol(),
                List.copyOf(plan.endpoints()),
                console);
        if (outcome.failed() > 0 || outcome.ready() < outcome.opened()) {
            warn("warm-up: " + outcome.failed() + " of " + outcome.opened() + " connections failed and "
                    + (outcome.opened() - outcome.ready() - outcome.failed()) + " never settled");
        }
        sleepBounded(WARM_UP_SETTLE);
    }

    /**
     * From now on publishes are measured; the latency-by-send-second series counts its seconds from {@code
     * startNanos} (System.nanoTime), the instant the first measured message is due.
     */
    private void openMeasuredWindow(long startNanos) {
        metrics.bySendSecond.startAt(Clock.nowMicros() + (startNanos - System.nanoTime()) / 1_000);
        gate.set(PublishGate.State.MEASURE);
    }

    /** Waits until every opened connection is ready or failed, at most READY_GRACE without progress. */
    private void awaitSettled(int opened) throws InterruptedException {
        int lastSettled = -1;
        long lastProgress = System.nanoTime();
        while (settled.get() < opened && !pastDeadline()) {
            int now = settled.get();
            if (now != lastSettled) {
                lastSettled = now;
                lastProgress = System.nanoTime();
            } else if (System.nanoTime() - lastProgress > READY_GRACE.toNanos()) {
                warn((opened - now) + " connections neither became ready nor failed within " + READY_GRACE.toSeconds()
                        + " s; going on without them");
                return;
            }
            Thread.sleep(20);
        }
    }

    /** After the last publish: until nothing is in flight and nothing arrived for a second, at most the drain time. */
    private void drain(RunSampler sampler) throws InterruptedException {
        long end = System.nanoTime() + scenario.drain().toNanos();
        long lastReceived = metrics.received.sum();
        long quietSince = System.nanoTime();
        while (System.nanoTime() < end && !pastDeadline()) {
            Thread.sleep(100);
            long received = metrics.received.sum();
            if (received != lastReceived) {
                lastReceived = received;
                quietSince = System.nanoTime();
            } else if (metrics.inflight.get() <= 0
                    && System.nanoTime() - quietSince > 1_000_000_000L
                    && (!options.role().runsSubscribers()
                            || scenario.subscribers().isEmpty()
                            || sampler.secondsSinceLastMeasured() > 1)) {
                return;
            }
        }
    }

    /** Subscribers-only process: receives until the publishers have visibly finished, or the budget ends. */
    private void awaitPublishersDone(RunSampler sampler) throws InterruptedException {
        double quietEnough = Math.max(2, scenario.drain().toSeconds()) + 1;
        while (!pastDeadline()) {
            Thread.sleep(200);
            if (sampler.secondsSinceLastMeasured() > quietEnough) {
                return;
            }
        }
    }

    private Duration waitForPublishersSlack() {
        return Duration.ofMillis((long) (scenario.publisherRampSeconds() * 1000))
                .plus(Duration.ofSeconds(60));
    }

    private void sleepBounded(Duration duration) throws InterruptedException {
        long end = Math.min(System.nanoTime() + duration.toNanos(), hardDeadlineNanos);
        while (System.nanoTime() < end) {
            Thread.sleep(Math.max(1, Math.min(100, (end - System.nanoTime()) / 1_000_000)));
        }
    }

    private boolean pastDeadline() {
        return System.nanoTime() > hardDeadlineNanos;
    }

    private void warn(String message) {
        warnings.add(message);
        console.line("WARNING: " + message);
    }
}
