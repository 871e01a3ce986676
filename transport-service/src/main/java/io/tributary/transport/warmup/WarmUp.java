package io.tributary.transport.warmup;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.local.LocalAddress;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalIoHandler;
import io.netty.channel.local.LocalServerChannel;
import io.netty.handler.codec.mqtt.MqttDecoder;
import io.netty.handler.codec.mqtt.MqttEncoder;
import io.tributary.transport.connect.WarmUpMark;
import io.tributary.transport.listener.MqttChannelInitializer;
import io.tributary.transport.liveness.NodeRegistration;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Runs the node's hot paths before it reports ready, so that the first storm of real clients after a start does
 * not queue behind the JIT (issue 33: the first 3,000 CONNECTs after a start waited 1.3-2.1 s at p99 while the
 * compilers took 12.6 of the box's 20 CPU-seconds). Its sessions are real ones through the whole cluster (this
 * node's MQTT pipeline, session-service, Kafka, the router and back), opened over an in-process channel that only
 * this class can reach ({@link WarmUpMark}), so session-service admits them without credentials and holds them to
 * {@code $warmup/<node>/#}. Until it ends the {@code warmUp} health contributor, part of readiness, is out of service;
 * it ends when every session has run, at the timeout, or when the first sessions all fail (logged once).
 */
public final class WarmUp implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(WarmUp.class);
    /** Consecutive failures from the start after which the warm-up gives up: the cluster refuses it. */
    private static final int GIVE_UP_AFTER = 10;

    private static final long PROGRESS_EVERY_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long SESSION_TIMEOUT_MILLIS = 10_000;

    /** What readiness reports. */
    public record Status(boolean done, int sessions, int completed, int failed, String firstFailure, long millis) {}

    private final String nodeId;
    private final WarmUpProperties properties;
    private final MqttChannelInitializer pipeline;
    private final NodeRegistration registration;
    private final int maxPacketSize;
    private final AtomicInteger completed = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicReference<String> firstFailure = new AtomicReference<>();
    private volatile boolean done;
    private volatile boolean running;
    private volatile long startedNanos;
    private volatile long tookMillis;
    private EventLoopGroup group;
    private Channel server;
    private Thread thread;

    public WarmUp(
            String nodeId,
            WarmUpProperties properties,
            MqttChannelInitializer pipeline,
            NodeRegistration registration,
            int maxPacketSize) {
        this.nodeId = nodeId;
        this.properties = properties;
        this.pipeline = pipeline.withoutAdmission();
        this.registration = registration;
        this.maxPacketSize = maxPacketSize;
        this.done = !properties.enabled();
    }

    public Status status() {
        long millis = done ? tookMillis : startedNanos == 0 ? 0 : (System.nanoTime() - startedNanos) / 1_000_000;
        return new Status(done, properties.connections(), completed.get(), failed.get(), firstFailure.get(), millis);
    }

    @Override
    public void start() {
        running = true;
        if (!properties.enabled()) {
            return;
        }
        thread = new Thread(this::run, "warm-up");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        startedNanos = System.nanoTime();
        long deadline = startedNanos + properties.timeout().toNanos();
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        long jitBefore = jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
        try {
            LocalAddress address = new LocalAddress("tributary-warm-up-" + UUID.randomUUID());
            group = new MultiThreadIoEventLoopGroup(1, LocalIoHandler.newFactory());
            server = new ServerBootstrap()
                    .group(group)
                    .channel(LocalServerChannel.class)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel channel) {
                            WarmUpMark.mark(channel);
                            pipeline.addMqttHandlers(channel.pipeline());
                        }
                    })
                    .bind(address)
                    .sync()
                    .channel();
            if (awaitRegistration(deadline)) {
                runSessions(address, deadline);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            firstFailure.compareAndSet(null, e.toString());
            log.warn("Warm-up failed: {}", e.toString());
        } finally {
            tookMillis = (System.nanoTime() - startedNanos) / 1_000_000;
            closeChannels();
            long jitMillis = jitBefore < 0 ? -1 : jit.getTotalCompilationTime() - jitBefore;
            log.info(
                    "Warm-up done in {} ms: {} of {} sessions through, {} failed{}; JIT compilation meanwhile {} ms",
                    tookMillis,
                    completed.get() - failed.get(),
                    properties.connections(),
                    failed.get(),
                    firstFailure.get() == null ? "" : " (first: " + firstFailure.get() + ")",
                    jitMillis);
            done = true;
        }
    }

    private boolean awaitRegistration(long deadline) throws InterruptedException {
        while (!registration.registered()) {
            if (!running || System.nanoTime() > deadline) {
                log.warn("Warm-up skipped: the node was not registered with session-service in time");
                return false;
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
        return true;
    }

    private void runSessions(LocalAddress address, long deadline) throws InterruptedException {
        Semaphore lanes = new Semaphore(properties.concurrency());
        long nextProgress = System.nanoTime() + PROGRESS_EVERY_NANOS;
        log.info(
                "Warm-up: {} sessions, {} at a time, {} messages each, at most {}",
                properties.connections(),
                properties.concurrency(),
                properties.messages(),
                properties.timeout());
        for (int n = 0; n < properties.connections() && running; n++) {
            if (!lanes.tryAcquire(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                log.warn("Warm-up timeout {} reached after {} sessions", properties.timeout(), completed.get());
                return;
            }
            if (failed.get() >= GIVE_UP_AFTER && failed.get() == completed.get()) {
                log.warn("Warm-up given up: its first {} sessions failed", failed.get());
                return;
            }
            open(address, n).whenComplete((failure, e) -> {
                if (failure != null) {
                    failed.incrementAndGet();
                    firstFailure.compareAndSet(null, failure);
                }
                completed.incrementAndGet();
                lanes.release();
            });
            if (System.nanoTime() > nextProgress) {
                nextProgress += PROGRESS_EVERY_NANOS;
                log.info(
                        "Warm-up: {} of {} sessions, {} failed",
                        completed.get(),
                        properties.connections(),
                        failed.get());
            }
        }
        // The last sessions finish (each has its own timeout).
        lanes.tryAcquire(properties.concurrency(), Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    private java.util.concurrent.CompletableFuture<String> open(LocalAddress address, int n) {
        WarmUpSession session = new WarmUpSession(nodeId, n, properties.messages(), SESSION_TIMEOUT_MILLIS);
        new Bootstrap()
                .group(group)
                .channel(LocalChannel.class)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        channel.pipeline().addLast(new MqttDecoder(maxPacketSize), MqttEncoder.INSTANCE, session);
                    }
                })
                .connect(address)
                .addListener(f -> {
                    if (!f.isSuccess()) {
                        session.result.complete("in-process connect failed: " + f.cause());
                    }
                });
        return session.result;
    }

    private void closeChannels() {
        if (server != null) {
            server.close().syncUninterruptibly();
        }
        if (group != null) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    @Override
    public void stop() {
        running = false;
        if (thread != null) {
            thread.interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** After the MQTT listeners (their phase is {@code Integer.MAX_VALUE - 100}): the node is listening first. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 50;
    }
}
