package io.tributary.it.support;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.MqttClientTransportConfig;
import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.lifecycle.MqttDisconnectSource;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A steady stream of numbered messages from one publisher to persistent subscribers, for fault-injection tests:
 * counts what the publisher got acknowledged against what each subscriber received. Every client reconnects by itself
 * when its connection is lost, to the other transport node (the one it was on may be the one that died), with its
 * session (clean start 0, session expiry 1 h for subscribers).
 *
 * <p>The publisher re-publishes a message until it is acknowledged: a message counts as acknowledged only once its
 * PUBACK (QoS 1) or PUBCOMP (QoS 2) arrived. A message published again after a failure is a new MQTT message, so the
 * publisher itself may cause duplicates; {@link Report#republished} says how many times it did.
 */
public final class SteadyStream implements AutoCloseable {

    /** Outcome for one subscriber. */
    public record SubscriberReport(String clientId, int distinct, int lost, int duplicates, List<Integer> lostSample) {}

    public record Report(
            String name,
            int qos,
            int published,
            int acknowledged,
            int republished,
            List<SubscriberReport> subscribers) {

        public int lost() {
            return subscribers.stream().mapToInt(SubscriberReport::lost).sum();
        }

        public int duplicates() {
            return subscribers.stream().mapToInt(SubscriberReport::duplicates).sum();
        }

        @Override
        public String toString() {
            StringBuilder out = new StringBuilder();
            out.append(String.format(
                    "[fault] %s, QoS %d: published %d, acknowledged %d, re-published after a failure %d",
                    name, qos, published, acknowledged, republished));
            for (SubscriberReport s : subscribers) {
                out.append(String.format(
                        "%n[fault]   subscriber %s: received %d distinct, lost %d, duplicates %d%s",
                        s.clientId(),
                        s.distinct(),
                        s.lost(),
                        s.duplicates(),
                        s.lost() > 0 ? " (first lost: " + s.lostSample() + ")" : ""));
            }
            return out.toString();
        }
    }

    private final String name;
    private final String topic;
    private final int qos;
    private final int[] ports;
    private final Set<Integer> acknowledged = ConcurrentHashMap.newKeySet();
    private final AtomicInteger published = new AtomicInteger();
    private final AtomicInteger republished = new AtomicInteger();
    private final List<Subscriber> subscribers = new ArrayList<>();
    private final AtomicBoolean publishing = new AtomicBoolean();
    private final AtomicLong intervalMicros;
    /** DISCONNECT reason codes the server sent to this stream's clients, by name (e.g. SERVER_SHUTTING_DOWN). */
    private final Map<String, AtomicInteger> serverDisconnects = new ConcurrentHashMap<>();

    private Thread publisherThread;
    private Mqtt5BlockingClient publisher;
    private volatile Throwable publisherFailure;

    private static final class Subscriber {
        final String clientId;
        final Mqtt5AsyncClient client;
        final Map<Integer, AtomicInteger> received = new ConcurrentHashMap<>();

        Subscriber(String clientId, Mqtt5AsyncClient client) {
            this.clientId = clientId;
            this.client = client;
        }
    }

    /**
     * @param ports the MQTT ports of the transport nodes; clients start on the node given to them and move to the
     *              next one each time their connection is lost
     */
    public SteadyStream(String name, int qos, int messagesPerSecond, int[] ports) {
        this.name = name;
        this.qos = qos;
        this.ports = ports;
        this.topic = "it/fault/" + Clients.id(name);
        this.intervalMicros = new AtomicLong(1_000_000L / messagesPerSecond);
    }

    /** Connects a persistent subscriber on node {@code node} and subscribes it. */
    public SteadyStream subscriber(int node) throws Exception {
        String clientId = Clients.id("fsub");
        Mqtt5AsyncClient client = failingOver(clientId, node).buildAsync();
        Subscriber subscriber = new Subscriber(clientId, client);
        client.publishes(MqttGlobalPublishFilter.ALL, publish -> {
            int seq = Integer.parseInt(new String(publish.getPayloadAsBytes(), StandardCharsets.UTF_8));
            subscriber.received.computeIfAbsent(seq, s -> new AtomicInteger()).incrementAndGet();
        });
        client.connectWith()
                .cleanStart(false)
                .sessionExpiryInterval(3600)
                .send()
                .get(30, TimeUnit.SECONDS);
        client.subscribeWith()
                .topicFilter(topic)
                .qos(MqttQos.fromCode(qos))
                .send()
                .get(30, TimeUnit.SECONDS);
        subscribers.add(subscriber);
        return this;
    }

    /** Starts publishing from a client on node {@code node}. */
    public SteadyStream startPublishing(int node) throws Exception {
        publisher = failingOver(Clients.id("fpub"), node).buildBlocking();
        publisher.connectWith().cleanStart(true).send();
        publishing.set(true);
        publisherThread = new Thread(this::publishLoop, "steady-stream-" + name);
        publisherThread.start();
        return this;
    }

    private void publishLoop() {
        long next = System.nanoTime();
        int seq = 0;
        try {
            while (publishing.get()) {
                publishUntilAcknowledged(seq++);
                published.set(seq);
                next += TimeUnit.MICROSECONDS.toNanos(intervalMicros.get());
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                } else {
                    next = System.nanoTime();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            publisherFailure = e;
        }
    }

    private void publishUntilAcknowledged(int seq) throws InterruptedException {
        byte[] payload = Integer.toString(seq).getBytes(StandardCharsets.UTF_8);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        boolean first = true;
        while (true) {
            try {
                if (!first) {
                    republished.incrementAndGet();
                }
                first = false;
                var result = publisher
                        .publishWith()
                        .topic(topic)
                        .payload(payload)
                        .qos(MqttQos.fromCode(qos))
                        .send();
                if (result.getError().isEmpty()) {
                    acknowledged.add(seq);
                    return;
                }
            } catch (RuntimeException e) {
                // Connection lost or refused: the client reconnects by itself; publish again.
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("message " + seq + " not acknowledged within 120 s");
            }
            Thread.sleep(100);
        }
    }

    /** Stops publishing and waits for the publisher's last message. */
    public void stopPublishing() throws InterruptedException {
        publishing.set(false);
        publisherThread.join(150_000);
        if (publisherFailure != null) {
            throw new AssertionError("publisher failed", publisherFailure);
        }
    }

    /** Waits until every subscriber received every acknowledged message, or the timeout; then reports. */
    public Report awaitDelivered(long timeoutSeconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (System.nanoTime() < deadline && !allDelivered()) {
            Thread.sleep(200);
        }
        // A moment more for duplicates still on their way.
        Thread.sleep(1_000);
        List<SubscriberReport> reports = new ArrayList<>();
        for (Subscriber s : subscribers) {
            List<Integer> lost = new ArrayList<>();
            for (int seq : acknowledged) {
                if (!s.received.containsKey(seq)) {
                    lost.add(seq);
                }
            }
            lost.sort(null);
            int duplicates =
                    s.received.values().stream().mapToInt(c -> c.get() - 1).sum();
            reports.add(new SubscriberReport(
                    s.clientId,
                    s.received.size(),
                    lost.size(),
                    duplicates,
                    lost.subList(0, Math.min(10, lost.size()))));
        }
        return new Report(name, qos, published.get(), acknowledged.size(), republished.get(), reports);
    }

    private boolean allDelivered() {
        for (Subscriber s : subscribers) {
            if (!s.received.keySet().containsAll(acknowledged)) {
                return false;
            }
        }
        return true;
    }

    /** How many times the server ended a connection of this stream with a DISCONNECT, by reason code name. */
    public Map<String, Integer> serverDisconnects() {
        Map<String, Integer> counts = new java.util.TreeMap<>();
        serverDisconnects.forEach((reason, count) -> counts.put(reason, count.get()));
        return counts;
    }

    public int acknowledgedCount() {
        return acknowledged.size();
    }

    private com.hivemq.client.mqtt.mqtt5.Mqtt5ClientBuilder failingOver(String clientId, int node) {
        AtomicInteger current = new AtomicInteger(node);
        return MqttClient.builder()
                .useMqttVersion5()
                .identifier(clientId)
                .serverHost("127.0.0.1")
                .serverPort(ports[node])
                .automaticReconnect()
                .initialDelay(100, TimeUnit.MILLISECONDS)
                .maxDelay(1, TimeUnit.SECONDS)
                .applyAutomaticReconnect()
                .addDisconnectedListener(context -> {
                    if (context.getSource() == MqttDisconnectSource.SERVER
                            && context.getCause()
                                    instanceof com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5DisconnectException d) {
                        serverDisconnects
                                .computeIfAbsent(
                                        d.getMqttMessage().getReasonCode().name(), k -> new AtomicInteger())
                                .incrementAndGet();
                    }
                    if (context.getSource() != MqttDisconnectSource.USER) {
                        int next = current.updateAndGet(n -> (n + 1) % ports.length);
                        context.getReconnector()
                                .transportConfig(MqttClientTransportConfig.builder()
                                        .serverHost("127.0.0.1")
                                        .serverPort(ports[next])
                                        .build());
                    }
                });
    }

    @Override
    public void close() {
        publishing.set(false);
        if (publisher != null && publisher.getState().isConnectedOrReconnect()) {
            try {
                publisher.disconnect();
            } catch (RuntimeException e) {
                // already gone
            }
        }
        for (Subscriber s : subscribers) {
            try {
                s.client.disconnect().get(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                // already gone
            }
        }
    }
}
