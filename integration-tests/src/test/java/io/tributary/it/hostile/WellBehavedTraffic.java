package io.tributary.it.hostile;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import io.tributary.it.support.Clients;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A well-behaved QoS 1 publisher and one subscriber per node, exchanging numbered messages while something hostile
 * happens: which numbers each subscriber got, and the publish-to-receive latencies (same JVM, so nanoTime works).
 */
final class WellBehavedTraffic implements AutoCloseable {

    private final String topic = "it/hostile/" + Clients.id("wb");
    private final Mqtt5BlockingClient publisher;
    private final List<Mqtt5BlockingClient> subscribers = new ArrayList<>();
    private final List<BitSet> received = new ArrayList<>();
    private final List<Long> latenciesNanos = Collections.synchronizedList(new ArrayList<>());
    private final Thread publishing;
    private volatile boolean running = true;
    private volatile int sent;

    /** @param publishEveryMs pause between two QoS 1 publishes (each also waits for its PUBACK) */
    WellBehavedTraffic(int publisherPort, int[] subscriberPorts, int payloadBytes, long publishEveryMs) {
        for (int port : subscriberPorts) {
            Mqtt5BlockingClient s = Clients.hive5(port, Clients.id("wb-sub"));
            s.connect();
            BitSet got = new BitSet();
            received.add(got);
            s.toAsync().publishes(MqttGlobalPublishFilter.ALL, p -> onMessage(got, p));
            s.subscribeWith().topicFilter(topic).qos(MqttQos.AT_LEAST_ONCE).send();
            subscribers.add(s);
        }
        publisher = Clients.hive5(publisherPort, Clients.id("wb-pub"));
        publisher.connect();
        publishing = new Thread(
                () -> {
                    while (running) {
                        ByteBuffer payload = ByteBuffer.allocate(Math.max(12, payloadBytes));
                        int next = sent;
                        payload.putInt(next).putLong(System.nanoTime());
                        publisher
                                .publishWith()
                                .topic(topic)
                                .qos(MqttQos.AT_LEAST_ONCE)
                                .payload(payload.array())
                                .send();
                        sent = next + 1; // only this thread writes it; volatile for the readers
                        sleep(publishEveryMs);
                    }
                },
                "well-behaved-publisher");
        publishing.start();
    }

    private void onMessage(BitSet got, Mqtt5Publish publish) {
        ByteBuffer b = publish.getPayload().orElseThrow().duplicate();
        int seq = b.getInt();
        latenciesNanos.add(System.nanoTime() - b.getLong());
        synchronized (got) {
            got.set(seq);
        }
    }

    /** Stops publishing; returns how many were sent (all acknowledged). */
    int stop() throws InterruptedException {
        running = false;
        publishing.join(30_000);
        return sent;
    }

    /** Waits up to {@code timeoutMs} for every subscriber to hold every sent message; returns the missing counts. */
    List<Integer> missingAfter(long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        List<Integer> missing;
        do {
            missing = new ArrayList<>();
            for (BitSet got : received) {
                synchronized (got) {
                    missing.add(sent - got.get(0, sent).cardinality());
                }
            }
            if (missing.stream().allMatch(m -> m == 0)) {
                return missing;
            }
            Thread.sleep(200);
        } while (System.nanoTime() < deadline);
        return missing;
    }

    /** Latency percentile in milliseconds over every delivery to every subscriber. */
    double latencyMs(double percentile) {
        List<Long> copy;
        synchronized (latenciesNanos) {
            copy = new ArrayList<>(latenciesNanos);
        }
        if (copy.isEmpty()) {
            return Double.NaN;
        }
        Collections.sort(copy);
        int index = (int) Math.min(copy.size() - 1, Math.ceil(percentile / 100 * copy.size()) - 1);
        return copy.get(Math.max(0, index)) / 1e6;
    }

    String topic() {
        return topic;
    }

    @Override
    public void close() {
        running = false;
        for (Mqtt5BlockingClient c : subscribers) {
            c.disconnect();
        }
        publisher.disconnect();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
