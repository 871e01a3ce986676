package io.tributary.it.faults;

import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.devstack.redis.RedisCommand;
import io.tributary.it.support.AdminRequests;
import io.tributary.it.support.ExtraTransport;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.Mqtt5Packets;
import io.tributary.it.support.RawMqtt;
import io.tributary.it.support.TributaryCluster;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Exactly-once QoS 2 into Kafka across a kill -9 (issue 17): a persistent-session publisher pipelines 1,000 QoS 2
 * messages into a transport node of its own; while Redis holds writes ({@code CLIENT PAUSE WRITE}), that node gets
 * Kafka's acknowledgement for the messages in flight but cannot record their packet ids, so it sends no PUBREC — the
 * window between Kafka and PUBREC, widened so every run has messages in it; a last burst is sent and the node is
 * killed -9 at once (transactions it leaves open are aborted by the broker, and their re-sends must be stored). The
 * publisher reconnects with its session to a shared node, re-sends (DUP = 1) every PUBLISH it has no PUBREC for,
 * releases the others, and finishes the run there (MQTT 4.3.3, 4.4). A plain Kafka consumer (isolation
 * {@code read_committed}: aborted transactions are not records a consumer sees) then finds every message exactly
 * once in {@code tributary.publish} and in the Kafka topic of a mapping rule that matches them.
 */
@ExtendWith(LogsOnFailure.class)
class Qos2ExactlyOnceNodeKillTest {

    private static final int MESSAGES = 1000;
    private static final int WINDOW = 50;
    /** Sent on the first node before Redis is paused; the rest of the window is in flight when it is killed. */
    private static final int BEFORE_PAUSE = 400;
    /** Sent right before the kill. */
    private static final int BURST = 300;

    private static final String RULES = "/api/v1/rules/mqtt-to-kafka";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    @Test
    void qos2_messages_resent_after_their_node_is_killed_are_in_kafka_exactly_once() throws Exception {
        String prefix = id("eos");
        String topic = prefix + "/meter";
        String mappedTopic = id("it-eos-mapped");
        String clientId = id("eos-pub");
        long started = System.currentTimeMillis();
        long rule = createRule(prefix + "/#", mappedTopic);
        // Started after the rule, so the node applies it before its listener opens.
        ExtraTransport first = cluster.startTransport(
                id("it-eos-node"),
                // Redis is paused on purpose below: its commands must wait, not time out.
                Map.of("REDIS_COMMAND_TIMEOUT", "15s"));
        Publisher publisher = new Publisher(topic);
        double recognised;
        try {
            try (RawMqtt raw = new RawMqtt(first.mqttPort())) {
                connect(raw, clientId, true);
                publisher.run(raw, BEFORE_PAUSE);
                pauseRedisWrites(Duration.ofSeconds(6));
                publisher.fill(raw);
                // Long enough for Kafka to acknowledge everything in flight; the PUBRECs wait for Redis.
                publisher.drainFor(raw, Duration.ofMillis(2000));
                // And a burst the node is still reading or committing when it dies: transactions left open, which
                // the broker aborts, so their re-sends must be stored.
                publisher.burst(raw, BURST);
                first.process().kill();
            }
            unpauseRedis();
            int unacknowledged = publisher.unacknowledged();
            System.out.println("[eos] node killed with " + unacknowledged + " PUBLISHes without PUBREC");
            assertThat(unacknowledged)
                    .as("messages in the window between Kafka and PUBREC")
                    .isPositive();

            io.tributary.it.support.NodeProbe node1 = new io.tributary.it.support.NodeProbe(cluster, 0);
            double duplicatesBefore =
                    io.tributary.it.support.NodeProbe.sum(node1.scrape(), "tributary_qos2_duplicates_total");
            try (RawMqtt raw = new RawMqtt(cluster.mqttPort(0))) {
                byte[] connack = connect(raw, clientId, false);
                assertThat(Mqtt5Packets.sessionPresent(connack)).isTrue();
                long resent = System.nanoTime();
                publisher.resend(raw);
                publisher.drainUntilComplete(raw, Duration.ofSeconds(60));
                System.out.println("[eos] re-sends and releases finished after "
                        + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - resent) + " ms");
                publisher.run(raw, MESSAGES);
                publisher.drainUntilComplete(raw, Duration.ofSeconds(60));
                raw.send(Mqtt5Packets.disconnect());
            }
            recognised = io.tributary.it.support.NodeProbe.sum(node1.scrape(), "tributary_qos2_duplicates_total")
                    - duplicatesBefore;
            System.out.println("[eos] re-sent PUBLISHes found stored by the killed node: " + (long) recognised);
        } finally {
            unpauseRedis();
            first.close();
            deleteRule(rule);
        }

        Map<String, Integer> published = countInKafka("tributary.publish", topic, started);
        Map<String, Integer> mapped = countInKafka(mappedTopic, null, started);
        long publishDuplicates = duplicates(published);
        long mappedDuplicates = duplicates(mapped);
        System.out.println("[eos] tributary.publish: " + published.size() + " messages, " + publishDuplicates
                + " duplicate records; " + mappedTopic + ": " + mapped.size() + " messages, " + mappedDuplicates
                + " duplicate records");
        assertThat(published).as("every message in tributary.publish").hasSize(MESSAGES);
        assertThat(mapped).as("every message in the mapped topic").hasSize(MESSAGES);
        assertThat(publishDuplicates)
                .as("duplicate records in tributary.publish")
                .isZero();
        assertThat(mappedDuplicates).as("duplicate records in the mapped topic").isZero();
        // Kafka had the killed node's copies: the path under test was taken, not only re-sends of aborted ones.
        assertThat(recognised)
                .as("re-sends recognised as stored (tributary_qos2_duplicates_total)")
                .isPositive();
    }

    /**
     * A raw MQTT 5 publisher of messages {@code m-1 .. m-MESSAGES} with packet ids 1..MESSAGES (none reused), at most
     * {@link #WINDOW} unfinished at a time, PUBREL for each PUBREC.
     */
    private static final class Publisher {
        private static final int SENT = 1;
        private static final int RECEIVED = 2;
        private static final int COMPLETE = 3;

        private final String topic;
        private final int[] state = new int[MESSAGES + 1];
        private int next = 1;
        private int open;

        Publisher(String topic) {
            this.topic = topic;
        }

        byte[] publish(int id) {
            return Mqtt5Packets.publish(topic, 2, id, ("m-" + id).getBytes(StandardCharsets.UTF_8));
        }

        /** Publishes until message {@code last} is sent, reading acknowledgements as the window allows. */
        void run(RawMqtt raw, int last) throws IOException {
            while (next <= last) {
                if (open < WINDOW) {
                    state[next] = SENT;
                    open++;
                    raw.send(publish(next++));
                } else {
                    read(raw, 30_000);
                }
            }
        }

        /** Sends until the window is full, without reading. */
        void fill(RawMqtt raw) throws IOException {
            burst(raw, WINDOW - open);
        }

        /** Sends {@code count} more, beyond the window, without reading. */
        void burst(RawMqtt raw, int count) throws IOException {
            for (int sent = 0; sent < count && next <= MESSAGES; sent++) {
                state[next] = SENT;
                open++;
                raw.send(publish(next++));
            }
        }

        void drainFor(RawMqtt raw, Duration duration) throws IOException {
            long end = System.nanoTime() + duration.toNanos();
            while (System.nanoTime() < end) {
                read(raw, 100);
            }
        }

        void drainUntilComplete(RawMqtt raw, Duration timeout) throws IOException {
            long end = System.nanoTime() + timeout.toNanos();
            while (open > 0) {
                assertThat(System.nanoTime()).as("%d messages unfinished", open).isLessThan(end);
                read(raw, 1000);
            }
        }

        int unacknowledged() {
            int n = 0;
            for (int s : state) {
                n += s == SENT ? 1 : 0;
            }
            return n;
        }

        /** After reconnecting: each PUBLISH without PUBREC again with DUP = 1, PUBREL for the others (MQTT 4.4). */
        void resend(RawMqtt raw) throws IOException {
            for (int id = 1; id < next; id++) {
                if (state[id] == SENT) {
                    raw.send(Mqtt5Packets.withDup(publish(id)));
                } else if (state[id] == RECEIVED) {
                    raw.send(Mqtt5Packets.pubrel(id));
                }
            }
        }

        private void read(RawMqtt raw, int timeoutMs) throws IOException {
            byte[] packet;
            try {
                packet = raw.readPacket(timeoutMs);
            } catch (SocketTimeoutException e) {
                return;
            }
            assertThat(packet).as("the connection stays open").isNotNull();
            int type = Mqtt5Packets.type(packet);
            int id = ((packet[1] & 0xFF) << 8) | (packet[2] & 0xFF);
            if (type == 5) {
                assertThat(Mqtt5Packets.reasonCode(packet)).as("PUBREC %d", id).isZero();
                if (state[id] == SENT) {
                    state[id] = RECEIVED;
                }
                raw.send(Mqtt5Packets.pubrel(id));
            } else if (type == 7) {
                assertThat(Mqtt5Packets.reasonCode(packet)).as("PUBCOMP %d", id).isZero();
                if (state[id] != COMPLETE) {
                    state[id] = COMPLETE;
                    open--;
                }
            } else {
                throw new AssertionError("unexpected packet type " + type);
            }
        }
    }

    private static byte[] connect(RawMqtt raw, String clientId, boolean cleanStart) throws Exception {
        raw.send(Mqtt5Packets.connectPersistent(clientId, 60, cleanStart, 300));
        byte[] connack = raw.readPacket(15_000);
        assertThat(connack).as("CONNACK").isNotNull();
        assertThat(Mqtt5Packets.type(connack)).isEqualTo(2);
        assertThat(Mqtt5Packets.reasonCode(connack)).isZero();
        return connack;
    }

    /**
     * Records of {@code topic} written since {@code since}, counted per payload by a plain consumer with isolation
     * read_committed, read up to the end offsets every producer had reached (so the killed node's last transaction
     * is resolved, committed or aborted, before counting). {@code key}: only records with that key (null: all).
     */
    private static Map<String, Integer> countInKafka(String topic, String key, long since) throws Exception {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                cluster.kafkaBootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class);
        Map<String, Integer> counts = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config);
                Admin admin = Admin.create(
                        Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.kafkaBootstrapServers()))) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            consumer.assign(partitions);
            Map<TopicPartition, Long> times = new HashMap<>();
            partitions.forEach(p -> times.put(p, since - 1000));
            Map<TopicPartition, OffsetAndTimestamp> from = consumer.offsetsForTimes(times);
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (TopicPartition p : partitions) {
                OffsetAndTimestamp o = from.get(p);
                if (o == null) {
                    consumer.seekToEnd(List.of(p));
                } else {
                    consumer.seek(p, o.offset());
                }
                latest.put(p, OffsetSpec.latest());
            }
            // The high watermarks (isolation read_uncommitted): everything any producer wrote, decided or not.
            Map<TopicPartition, Long> end = new HashMap<>();
            admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).forEach((p, info) -> end.put(p, info.offset()));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            byte[] keyBytes = key == null ? null : key.getBytes(StandardCharsets.UTF_8);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                assertThat(System.nanoTime()).as("read %s up to %s", topic, end).isLessThan(deadline);
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    if (keyBytes == null || java.util.Arrays.equals(keyBytes, r.key())) {
                        counts.merge(new String(r.value(), StandardCharsets.UTF_8), 1, Integer::sum);
                    }
                }
            }
        }
        return counts;
    }

    private static long duplicates(Map<String, Integer> counts) {
        return counts.values().stream().mapToLong(n -> n - 1).sum();
    }

    private static long createRule(String filter, String kafkaTopic) throws Exception {
        String body = "{\"filter\":\"" + filter + "\",\"kafkaTopic\":\"" + kafkaTopic + "\",\"partitions\":3}";
        HttpResponse<String> response = HTTP.send(
                AdminRequests.to(cluster.sessionApiUrl(), RULES)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("\"id\"\\s*:\\s*(\\d+)").matcher(response.body());
        assertThat(m.find()).as(response.body()).isTrue();
        long id = Long.parseLong(m.group(1));
        // Applied on the shared nodes too before any publish (the re-sends and the rest go to node 1).
        awaitRuleCount(1);
        return id;
    }

    private static void deleteRule(long id) throws Exception {
        HTTP.send(
                AdminRequests.to(cluster.sessionApiUrl(), RULES + "/" + id)
                        .DELETE()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        awaitRuleCount(0);
    }

    private static void awaitRuleCount(int expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        for (int node = 0; node < 2; node++) {
            io.tributary.it.support.NodeProbe probe = new io.tributary.it.support.NodeProbe(cluster, node);
            while (io.tributary.it.support.NodeProbe.sum(probe.scrape(), "tributary_mapping_rules") != expected) {
                assertThat(System.nanoTime())
                        .as("node %d applies %d rule(s)", node, expected)
                        .isLessThan(deadline);
                Thread.sleep(100);
            }
        }
    }

    /** Redis {@code CLIENT PAUSE <ms> WRITE}: write commands (and scripts that write) wait, reads go on. */
    private static void pauseRedisWrites(Duration duration) throws IOException {
        redis("CLIENT", "PAUSE", Long.toString(duration.toMillis()), "WRITE");
    }

    private static void unpauseRedis() throws IOException {
        redis("CLIENT", "UNPAUSE");
    }

    /** With the cluster's credentials, as the services connect. */
    private static void redis(String... command) throws IOException {
        assertThat(RedisCommand.firstReplyLine(cluster.redisUrl(), Duration.ofSeconds(5), command))
                .as("Redis answers %s with +OK", String.join(" ", command))
                .startsWith("+");
    }
}
