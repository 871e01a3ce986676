package io.tributary.it.controlplane;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Many MQTT 5 clients with persistent sessions (expiry 1 h) connecting at once, as a fleet does after an outage:
 * every client starts its CONNECT immediately (at most {@link #MAX_PENDING} outstanding), and one refused or failed
 * retries after a short back-off, as device firmware does, until the deadline.
 */
final class Fleet implements AutoCloseable {

    static final int MAX_PENDING = 2_000;
    private static final long SESSION_EXPIRY = 3600;

    /** @param retries refused or failed attempts that were tried again */
    record Result(int connected, int failed, int sessionPresent, int retries, long millis) {}

    private final List<String> ids;
    private final List<Mqtt5AsyncClient> clients = new ArrayList<>();
    private final Set<String> received = ConcurrentHashMap.newKeySet();

    Fleet(int port, List<String> ids) {
        this.ids = ids;
        for (String id : ids) {
            Mqtt5AsyncClient client = MqttClient.builder()
                    .useMqttVersion5()
                    .identifier(id)
                    .serverHost("127.0.0.1")
                    .serverPort(port)
                    .buildAsync();
            // Registered before CONNECT: a resumed session's queued messages may arrive right after CONNACK.
            client.publishes(MqttGlobalPublishFilter.ALL, publish -> received.add(id));
            clients.add(client);
        }
    }

    Result connectAll(boolean cleanStart, Duration deadline) throws InterruptedException {
        long start = System.nanoTime();
        long until = start + deadline.toNanos();
        Semaphore pending = new Semaphore(MAX_PENDING);
        AtomicInteger connected = new AtomicInteger();
        AtomicInteger present = new AtomicInteger();
        AtomicInteger retries = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        List<CompletableFuture<Void>> done = new ArrayList<>(clients.size());
        for (Mqtt5AsyncClient client : clients) {
            pending.acquire();
            CompletableFuture<Void> one = new CompletableFuture<>();
            attempt(client, cleanStart, until, one, connected, present, retries, failed);
            one.whenComplete((v, e) -> pending.release());
            done.add(one);
        }
        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).join();
        return new Result(
                connected.get(),
                failed.get(),
                present.get(),
                retries.get(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    }

    private void attempt(
            Mqtt5AsyncClient client,
            boolean cleanStart,
            long until,
            CompletableFuture<Void> one,
            AtomicInteger connected,
            AtomicInteger present,
            AtomicInteger retries,
            AtomicInteger failed) {
        client.connectWith()
                .cleanStart(cleanStart)
                .sessionExpiryInterval(SESSION_EXPIRY)
                .send()
                .whenComplete((ack, error) -> {
                    if (error == null) {
                        connected.incrementAndGet();
                        if (ack.isSessionPresent()) {
                            present.incrementAndGet();
                        }
                        one.complete(null);
                    } else if (System.nanoTime() < until) {
                        retries.incrementAndGet();
                        CompletableFuture.delayedExecutor(200 + (long) (Math.random() * 800), TimeUnit.MILLISECONDS)
                                .execute(() ->
                                        attempt(client, cleanStart, until, one, connected, present, retries, failed));
                    } else {
                        failed.incrementAndGet();
                        one.complete(null);
                    }
                });
    }

    /** One QoS 1 SUBSCRIBE per client, all under way at once (bounded), waiting for every SUBACK. */
    void subscribeEach(Function<String, String> filterOf) throws InterruptedException {
        Semaphore pending = new Semaphore(MAX_PENDING);
        List<CompletableFuture<?>> done = new ArrayList<>();
        for (int i = 0; i < clients.size(); i++) {
            pending.acquire();
            CompletableFuture<?> sub = clients.get(i)
                    .subscribeWith()
                    .topicFilter(filterOf.apply(ids.get(i)))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send()
                    .whenComplete((ack, e) -> pending.release());
            done.add(sub);
        }
        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).join();
    }

    /** How many clients got at least one message, once {@code expected} did or the timeout passed. */
    int awaitMessages(int expected, Duration timeout) throws InterruptedException {
        long until = System.nanoTime() + timeout.toNanos();
        while (received.size() < expected && System.nanoTime() < until) {
            TimeUnit.MILLISECONDS.sleep(100);
        }
        return received.size();
    }

    /** A normal DISCONNECT of every client; the sessions stay (their expiry is left as it is). */
    void disconnectAll() {
        List<CompletableFuture<Void>> done = new ArrayList<>();
        for (Mqtt5AsyncClient client : clients) {
            if (client.getState().isConnected()) {
                done.add(client.disconnect());
            }
        }
        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new))
                .orTimeout(60, TimeUnit.SECONDS)
                .join();
    }

    /** DISCONNECT with a new session expiry (0 ends the sessions). */
    void disconnectAll(long sessionExpiry) {
        List<CompletableFuture<Void>> done = new ArrayList<>();
        for (Mqtt5AsyncClient client : clients) {
            if (client.getState().isConnected()) {
                done.add(client.disconnectWith()
                        .sessionExpiryInterval(sessionExpiry)
                        .send());
            }
        }
        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new))
                .orTimeout(60, TimeUnit.SECONDS)
                .join();
    }

    @Override
    public void close() {
        for (Mqtt5AsyncClient client : clients) {
            if (client.getState().isConnected()) {
                client.disconnect();
            }
        }
    }
}
