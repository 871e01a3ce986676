package io.tributary.it.kafka;

import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5SubAckException;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.Mqtt5Subscribe;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.suback.Mqtt5SubAck;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.suback.Mqtt5SubAckReasonCode;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.TributaryCluster;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Replay from Kafka (issue 16): an MQTT 5 SUBSCRIBE with user property {@code replay-from} or {@code replay-last}
 * gets the matching messages still in {@code tributary.publish}, in order, then live traffic, with nothing missing
 * and nothing twice at the seam. Subscribers and publishers are on different transport nodes (the shared cluster's
 * publish topic has 4 partitions, so a wildcard reads several).
 */
@ExtendWith(LogsOnFailure.class)
class ReplayTest {

    private static final String PUBLISH_TOPIC = "tributary.publish";

    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    /**
     * Three publishers, one per topic, publish 20 messages each before the SUBSCRIBE and keep publishing while it
     * happens; the subscriber asks for everything since before the first one. Every topic must arrive complete,
     * once each, in publish order: a gap or a duplicate at the seam between history and live traffic fails it.
     */
    @Test
    void replay_from_joins_history_and_live_traffic_with_nothing_missing_and_nothing_twice() throws Exception {
        String root = id("replay-seam");
        List<String> topics = List.of(root + "/a", root + "/b", root + "/c");
        Instant before = Instant.now().minusSeconds(1);
        Map<String, Integer> published = new ConcurrentHashMap<>();
        List<Mqtt5BlockingClient> publishers = new ArrayList<>();
        for (String topic : topics) {
            Mqtt5BlockingClient p = Clients.hive5(cluster.mqttPort(0), id("rp-pub"));
            p.connect();
            publishers.add(p);
            published.put(topic, 0);
        }
        for (int i = 0; i < 20; i++) {
            for (int t = 0; t < topics.size(); t++) {
                publish(publishers.get(t), topics.get(t), published);
            }
        }
        AtomicBoolean stop = new AtomicBoolean();
        List<CompletableFuture<Void>> running = new ArrayList<>();
        for (int t = 0; t < topics.size(); t++) {
            Mqtt5BlockingClient p = publishers.get(t);
            String topic = topics.get(t);
            running.add(CompletableFuture.runAsync(() -> {
                while (!stop.get()) {
                    publish(p, topic, published);
                    // At most ~200/s per topic: the history stays below TRIBUTARY_REPLAY_MAX_MESSAGES (1000).
                    LockSupport.parkNanos(5_000_000);
                }
            }));
        }
        Mqtt5BlockingClient subscriber = Clients.hive5(cluster.mqttPort(1), id("rp-sub"));
        subscriber.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes received = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
            Thread.sleep(300);
            subscriber.subscribe(Mqtt5Subscribe.builder()
                    .topicFilter(root + "/+")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .userProperties()
                    .add("replay-from", before.toString())
                    .applyUserProperties()
                    .build());
            Thread.sleep(1500);
            stop.set(true);
            CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
            int total = published.values().stream().mapToInt(Integer::intValue).sum();
            assertThat(total).as("publishes acknowledged").isGreaterThan(3 * 25);

            Map<String, List<Integer>> got = receive(received, total, 20);
            assertThat(received.receive(1, TimeUnit.SECONDS)).as("nothing more").isEmpty();
            for (String topic : topics) {
                List<Integer> expected = new ArrayList<>();
                for (int i = 0; i < published.get(topic); i++) {
                    expected.add(i);
                }
                assertThat(got.get(topic))
                        .as("%s: every message once, in order", topic)
                        .containsExactlyElementsOf(expected);
            }
        } finally {
            subscriber.disconnect();
            publishers.forEach(Mqtt5BlockingClient::disconnect);
        }
    }

    /**
     * {@code replay-last} N: the last N matching messages, on an exact filter (one partition) and on a wildcard
     * (merged over the partitions by publish time), then live messages once.
     */
    @Test
    void replay_last_gives_the_last_n_messages_on_an_exact_filter_and_on_a_wildcard() throws Exception {
        String root = id("replay-last");
        Mqtt5BlockingClient publisher = Clients.hive5(cluster.mqttPort(0), id("rl-pub"));
        publisher.connect();
        Map<String, Integer> published = new ConcurrentHashMap<>();
        for (int i = 0; i < 20; i++) {
            publish(publisher, root + "/x", published);
        }
        for (int i = 0; i < 5; i++) {
            publish(publisher, root + "/y", published);
        }
        publish(publisher, root + "/y/deeper", published);

        Mqtt5BlockingClient exact = Clients.hive5(cluster.mqttPort(1), id("rl-exact"));
        exact.connect();
        Mqtt5BlockingClient wildcard = Clients.hive5(cluster.mqttPort(1), id("rl-wild"));
        wildcard.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes exactIn = exact.publishes(MqttGlobalPublishFilter.ALL);
                Mqtt5BlockingClient.Mqtt5Publishes wildIn = wildcard.publishes(MqttGlobalPublishFilter.ALL)) {
            exact.subscribe(replay(root + "/x", "replay-last", "7"));
            wildcard.subscribe(replay(root + "/+", "replay-last", "10"));

            Map<String, List<Integer>> fromExact = receive(exactIn, 7, 15);
            assertThat(fromExact).containsExactly(Map.entry(root + "/x", List.of(13, 14, 15, 16, 17, 18, 19)));
            Map<String, List<Integer>> fromWildcard = receive(wildIn, 10, 15);
            assertThat(fromWildcard.get(root + "/x")).containsExactly(15, 16, 17, 18, 19);
            assertThat(fromWildcard.get(root + "/y")).containsExactly(0, 1, 2, 3, 4);

            publish(publisher, root + "/x", published);
            assertThat(receive(exactIn, 1, 15)).containsExactly(Map.entry(root + "/x", List.of(20)));
            assertThat(receive(wildIn, 1, 15)).containsExactly(Map.entry(root + "/x", List.of(20)));
            assertThat(exactIn.receive(1, TimeUnit.SECONDS)).as("nothing twice").isEmpty();
            assertThat(wildIn.receive(1, TimeUnit.SECONDS)).as("nothing twice").isEmpty();
        } finally {
            exact.disconnect();
            wildcard.disconnect();
            publisher.disconnect();
        }
    }

    /**
     * Past the limits (N above {@code TRIBUTARY_REPLAY_MAX_MESSAGES}, a start further back than
     * {@code TRIBUTARY_REPLAY_MAX_AGE}): SUBACK 0x97 Quota exceeded; a value that is not one: 0x83 Implementation
     * specific error. A refused filter is not subscribed either. A session with a session queue is granted its replay.
     */
    @Test
    void requests_past_the_limits_get_0x97_and_unusable_ones_0x83_and_are_not_subscribed() throws Exception {
        String root = id("replay-limits");
        Mqtt5BlockingClient subscriber = Clients.hive5(cluster.mqttPort(1), id("rq-sub"));
        subscriber.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes received = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
            assertThat(refusal(subscriber, replay(root + "/#", "replay-last", "1000000")))
                    .isEqualTo(Mqtt5SubAckReasonCode.QUOTA_EXCEEDED);
            assertThat(refusal(subscriber, replay(root + "/#", "replay-from", "2000-01-01T00:00:00Z")))
                    .isEqualTo(Mqtt5SubAckReasonCode.QUOTA_EXCEEDED);
            assertThat(refusal(subscriber, replay(root + "/#", "replay-from", "yesterday")))
                    .isEqualTo(Mqtt5SubAckReasonCode.IMPLEMENTATION_SPECIFIC_ERROR);
            assertThat(refusal(subscriber, replay(root + "/#", "replay-last", "-3")))
                    .isEqualTo(Mqtt5SubAckReasonCode.IMPLEMENTATION_SPECIFIC_ERROR);

            Mqtt5BlockingClient publisher = Clients.hive5(cluster.mqttPort(0), id("rq-pub"));
            publisher.connect();
            publish(publisher, root + "/t", new ConcurrentHashMap<>());
            publisher.disconnect();
            assertThat(received.receive(2, TimeUnit.SECONDS))
                    .as("refused filters are not subscribed")
                    .isEmpty();
        } finally {
            subscriber.disconnect();
        }
        Mqtt5BlockingClient persistent = Clients.hive5(cluster.mqttPort(1), id("rq-pers"));
        persistent.connectWith().cleanStart(true).sessionExpiryInterval(60).send();
        try {
            assertThat(refusal(persistent, replay(root + "/#", "replay-last", "5")))
                    .as("a session with a session queue gets its replay too (PersistentReplayTest)")
                    .isEqualTo(Mqtt5SubAckReasonCode.GRANTED_QOS_1);
        } finally {
            persistent.disconnectWith().sessionExpiryInterval(0).send();
        }
    }

    /**
     * A {@code replay-from} matching more than {@code TRIBUTARY_REPLAY_MAX_MESSAGES} (1000 here) delivers the newest
     * 1000, and its first message carries user property {@code replay-truncated} = {@code true}, so the client knows
     * the history does not reach back to the time it asked for. A history that fits, and a {@code replay-last} (which
     * gets exactly what it asked for), carry no such property.
     */
    @Test
    void a_replay_from_cut_to_the_newest_max_messages_says_so_on_its_first_message() throws Exception {
        String topic = id("replay-cut") + "/t";
        Instant before = Instant.now().minusSeconds(1);
        Mqtt5BlockingClient publisher = Clients.hive5(cluster.mqttPort(0), id("rc-pub"));
        publisher.connect();
        List<CompletableFuture<?>> acks = new ArrayList<>();
        for (int i = 0; i < 1003; i++) {
            acks.add(publisher
                    .toAsync()
                    .publishWith()
                    .topic(topic)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .payload(Integer.toString(i).getBytes(StandardCharsets.UTF_8))
                    .send());
        }
        CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        publisher.disconnect();

        Mqtt5BlockingClient cut = Clients.hive5(cluster.mqttPort(1), id("rc-cut"));
        cut.connect();
        Mqtt5BlockingClient last = Clients.hive5(cluster.mqttPort(1), id("rc-last"));
        last.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes cutIn = cut.publishes(MqttGlobalPublishFilter.ALL);
                Mqtt5BlockingClient.Mqtt5Publishes lastIn = last.publishes(MqttGlobalPublishFilter.ALL)) {
            cut.subscribe(replay(topic, "replay-from", before.toString()));
            List<Mqtt5Publish> history = receiveAll(cutIn, 1000); // and no more than the limit
            assertThat(new String(history.get(0).getPayloadAsBytes(), StandardCharsets.UTF_8))
                    .as("the newest 1000 of 1003")
                    .isEqualTo("3");
            assertThat(new String(history.get(999).getPayloadAsBytes(), StandardCharsets.UTF_8))
                    .isEqualTo("1002");
            assertThat(truncatedMarks(history.get(0))).containsExactly("true");
            assertThat(history.subList(1, 1000))
                    .allSatisfy(p -> assertThat(truncatedMarks(p)).isEmpty());

            last.subscribe(replay(topic, "replay-last", "5"));
            for (int i = 0; i < 5; i++) {
                Optional<Mqtt5Publish> p = lastIn.receive(30, TimeUnit.SECONDS);
                assertThat(p).as("replay-last message %d of 5", i + 1).isPresent();
                assertThat(truncatedMarks(p.get()))
                        .as("replay-last got what it asked for")
                        .isEmpty();
            }
        } finally {
            cut.disconnect();
            last.disconnect();
        }
    }

    /**
     * Kafka's retention deleted the oldest three of what a {@code replay-from} asks for (simulated with
     * {@code deleteRecords}, which moves the log start offset as retention does): the subscriber gets what is left,
     * and its first message says the history may not reach back to the time asked for. A {@code replay-from} whose
     * range starts after the oldest record left is whole and not marked.
     */
    @Test
    void a_replay_from_whose_range_retention_cut_says_so_on_its_first_message() throws Exception {
        String topic = id("replay-retention") + "/t";
        Instant before = Instant.now().minusSeconds(1);
        Mqtt5BlockingClient watch = Clients.hive5(cluster.mqttPort(1), id("rr-watch"));
        watch.connect();
        Mqtt5BlockingClient publisher = Clients.hive5(cluster.mqttPort(0), id("rr-pub"));
        publisher.connect();
        Instant mid;
        try (Mqtt5BlockingClient.Mqtt5Publishes live = watch.publishes(MqttGlobalPublishFilter.ALL)) {
            watch.subscribeWith().topicFilter(topic).qos(MqttQos.AT_LEAST_ONCE).send();
            Map<String, Integer> published = new LinkedHashMap<>();
            for (int i = 0; i < 5; i++) {
                publish(publisher, topic, published);
            }
            Thread.sleep(20); // a distinct millisecond for the second half
            mid = Instant.now();
            Thread.sleep(20);
            for (int i = 5; i < 10; i++) {
                publish(publisher, topic, published);
            }
            // Routed (a live subscriber has them all) before any record is deleted under the routers.
            assertThat(receive(live, 10, 30).get(topic)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        } finally {
            publisher.disconnect();
            watch.disconnect();
        }
        deleteRecordsBefore(topic, "3", before);

        Mqtt5BlockingClient cut = Clients.hive5(cluster.mqttPort(1), id("rr-cut"));
        cut.connect();
        Mqtt5BlockingClient whole = Clients.hive5(cluster.mqttPort(1), id("rr-whole"));
        whole.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes cutIn = cut.publishes(MqttGlobalPublishFilter.ALL);
                Mqtt5BlockingClient.Mqtt5Publishes wholeIn = whole.publishes(MqttGlobalPublishFilter.ALL)) {
            cut.subscribe(replay(topic, "replay-from", before.toString()));
            List<Mqtt5Publish> history = receiveAll(cutIn, 7);
            assertThat(history)
                    .extracting(p -> new String(p.getPayloadAsBytes(), StandardCharsets.UTF_8))
                    .as("what retention left")
                    .containsExactly("3", "4", "5", "6", "7", "8", "9");
            assertThat(truncatedMarks(history.get(0)))
                    .as("the first says the range was cut")
                    .containsExactly("true");
            assertThat(history.subList(1, 7))
                    .allSatisfy(p -> assertThat(truncatedMarks(p)).isEmpty());

            whole.subscribe(replay(topic, "replay-from", mid.toString()));
            List<Mqtt5Publish> complete = receiveAll(wholeIn, 5);
            assertThat(complete)
                    .extracting(p -> new String(p.getPayloadAsBytes(), StandardCharsets.UTF_8))
                    .containsExactly("5", "6", "7", "8", "9");
            assertThat(complete)
                    .as("a range after the deleted records is whole: not marked")
                    .allSatisfy(p -> assertThat(truncatedMarks(p)).isEmpty());
        } finally {
            cut.disconnect();
            whole.disconnect();
        }
    }

    private static List<Mqtt5Publish> receiveAll(Mqtt5BlockingClient.Mqtt5Publishes in, int count)
            throws InterruptedException {
        List<Mqtt5Publish> got = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Optional<Mqtt5Publish> p = in.receive(30, TimeUnit.SECONDS);
            assertThat(p).as("replayed message %d of %d", i + 1, count).isPresent();
            got.add(p.get());
        }
        assertThat(in.receive(1, TimeUnit.SECONDS)).as("nothing more").isEmpty();
        return got;
    }

    /**
     * Deletes the records of the publish partition holding {@code topic} up to (not including) the record of
     * {@code topic} whose payload is {@code payload}. Earlier tests' records in that partition go too: they were
     * routed and their tests are over (tests of this module run one at a time).
     */
    private static void deleteRecordsBefore(String topic, String payload, Instant before) throws Exception {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                cluster.kafkaBootstrapServers(),
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class.getName(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest");
        TopicPartition found = null;
        long offset = -1;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            List<TopicPartition> partitions = consumer.partitionsFor(PUBLISH_TOPIC).stream()
                    .map(i -> new TopicPartition(PUBLISH_TOPIC, i.partition()))
                    .toList();
            consumer.assign(partitions);
            // From this test's first record on, not through everything earlier tests published.
            Map<TopicPartition, Long> since = new HashMap<>();
            partitions.forEach(tp -> since.put(tp, before.toEpochMilli()));
            consumer.offsetsForTimes(since).forEach((tp, at) -> {
                if (at == null) {
                    consumer.seekToEnd(List.of(tp));
                } else {
                    consumer.seek(tp, at.offset());
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (found == null && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    if (r.key() != null
                            && topic.equals(new String(r.key(), StandardCharsets.UTF_8))
                            && payload.equals(new String(r.value(), StandardCharsets.UTF_8))) {
                        found = new TopicPartition(r.topic(), r.partition());
                        offset = r.offset();
                    }
                }
            }
        }
        assertThat(found).as("the record of %s with payload %s", topic, payload).isNotNull();
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.kafkaBootstrapServers()))) {
            admin.deleteRecords(Map.of(found, RecordsToDelete.beforeOffset(offset)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
    }

    private static List<String> truncatedMarks(Mqtt5Publish p) {
        return p.getUserProperties().asList().stream()
                .filter(u -> u.getName().toString().equals("replay-truncated"))
                .map(u -> u.getValue().toString())
                .toList();
    }

    static Mqtt5Subscribe replay(String filter, String property, String value) {
        return Mqtt5Subscribe.builder()
                .topicFilter(filter)
                .qos(MqttQos.AT_LEAST_ONCE)
                .userProperties()
                .add(property, value)
                .applyUserProperties()
                .build();
    }

    static Mqtt5SubAckReasonCode refusal(Mqtt5BlockingClient client, Mqtt5Subscribe subscribe) {
        Mqtt5SubAck ack;
        try {
            ack = client.subscribe(subscribe);
        } catch (Mqtt5SubAckException e) {
            ack = e.getMqttMessage();
        }
        assertThat(ack.getReasonCodes()).hasSize(1);
        return ack.getReasonCodes().get(0);
    }

    /** Publishes the next number of {@code topic} at QoS 1; counts it once acknowledged. */
    static void publish(Mqtt5BlockingClient publisher, String topic, Map<String, Integer> published) {
        int n = published.getOrDefault(topic, 0);
        publisher
                .publishWith()
                .topic(topic)
                .qos(MqttQos.AT_LEAST_ONCE)
                .payload(Integer.toString(n).getBytes(StandardCharsets.UTF_8))
                .send();
        published.put(topic, n + 1);
    }

    /** Receives {@code count} messages, by topic in arrival order. */
    static Map<String, List<Integer>> receive(
            Mqtt5BlockingClient.Mqtt5Publishes received, int count, int timeoutSeconds) throws InterruptedException {
        Map<String, List<Integer>> got = new LinkedHashMap<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        for (int i = 0; i < count; i++) {
            long left = deadline - System.nanoTime();
            Optional<Mqtt5Publish> p = received.receive(Math.max(1, left), TimeUnit.NANOSECONDS);
            assertThat(p).as("message %d of %d (so far %s)", i + 1, count, got).isPresent();
            got.computeIfAbsent(p.get().getTopic().toString(), t -> new ArrayList<>())
                    .add(Integer.parseInt(new String(p.get().getPayloadAsBytes(), StandardCharsets.UTF_8)));
        }
        return got;
    }
}
