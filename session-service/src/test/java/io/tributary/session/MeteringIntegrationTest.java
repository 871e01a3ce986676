package io.tributary.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.kafka.TopicNames;
import io.tributary.common.metering.MeteringRecords;
import io.tributary.common.metering.UsageDelta;
import io.tributary.common.metering.UsageTotals;
import io.tributary.session.metering.MeteringConsumer;
import io.tributary.session.metering.UsageSampler;
import io.tributary.session.support.FeedReader;
import io.tributary.session.support.TestEngines;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * Metering in session-service: the transport nodes' usage deltas (produced here as a node would) are added into
 * tenant_usage exactly once however often Kafka delivers them, the totals are on the admin API and on the compacted
 * tributary.metering topic, stored bytes are sampled from the retained messages. Real PostgreSQL and Kafka.
 */
@Order(3)
class MeteringIntegrationTest extends ServiceTestBase {

    private static final Instant HOUR = Instant.now().truncatedTo(ChronoUnit.HOURS);
    private static Producer<byte[], byte[]> producer;

    @Autowired
    MeteringConsumer consumer;

    @Autowired
    UsageSampler sampler;

    @BeforeAll
    static void producer() {
        producer = TestEngines.kafkaProducer();
    }

    @AfterAll
    static void closeProducer() {
        producer.close();
    }

    private static void produce(UsageDelta... deltas) throws Exception {
        for (UsageDelta d : deltas) {
            producer.send(new ProducerRecord<>(
                            TopicNames.METERING_DELTAS,
                            MeteringRecords.deltaKey(d.tenant()),
                            MeteringRecords.encode(d)))
                    .get();
        }
    }

    private static UsageDelta delta(String tenant, String node, long incarnation, long sequence, Instant hour, long n) {
        return new UsageDelta(tenant, node, incarnation, sequence, hour, n, 10 * n, 2 * n, 20 * n, 1_500 * n);
    }

    private void createTenant(String id) throws Exception {
        assertThat(sendJson("POST", "/api/v1/tenants", Map.of("id", id)).status())
                .isIn(201, 409);
    }

    private JsonNode usageUntil(String path, Predicate<JsonNode> done) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            Response r = get(path);
            assertThat(r.status()).as("%s", r.body()).isEqualTo(200);
            if (done.test(r.body()) || System.nanoTime() > deadline) {
                return r.body();
            }
            Thread.sleep(100);
        }
    }

    private static UsageTotals lastOnTopic(String tenant, Instant hour) {
        List<ConsumerRecord<byte[], byte[]>> records = FeedReader.withKey(
                FeedReader.readAll(TestEngines.kafkaBootstrap(), TopicNames.METERING),
                utf8(MeteringRecords.totalsKey(tenant, hour)));
        assertThat(records)
                .as("totals of %s %s on %s", tenant, hour, TopicNames.METERING)
                .isNotEmpty();
        return MeteringRecords.decodeTotals(records.get(records.size() - 1).value());
    }

    @Test
    void deltas_of_several_nodes_add_up_once_however_often_kafka_delivers_them() throws Exception {
        createTenant("meter-a");
        Instant previous = HOUR.minus(Duration.ofHours(1));
        UsageDelta n1s1 = delta("meter-a", "node-1", 100, 1, HOUR, 3);
        UsageDelta n1s2 = delta("meter-a", "node-1", 100, 2, HOUR, 4);
        UsageDelta n2s1 = delta("meter-a", "node-2", 200, 1, HOUR, 5);
        // node-1 restarted: a new incarnation numbers from 1 again and is not mistaken for a repeat
        UsageDelta restarted = delta("meter-a", "node-1", 101, 1, HOUR, 6);
        UsageDelta earlier = delta("meter-a", "node-2", 200, 2, previous, 7);
        produce(n1s1, n1s2, n2s1, restarted, earlier);
        String path = "/api/v1/tenants/meter-a/usage?from=" + previous + "&to=" + HOUR.plus(Duration.ofHours(1));
        JsonNode usage =
                usageUntil(path, u -> u.path("totals").path("messagesIn").asLong() == 25);
        assertThat(usage.path("totals").path("messagesIn").asLong()).isEqualTo(25);

        // Delivered again (a producer retry, a batch read again after a rebalance): nothing changes.
        produce(n1s2, n2s1, restarted, earlier);
        // ...and a new delta after them shows the repeats were read and skipped.
        produce(delta("meter-a", "node-2", 200, 3, HOUR, 1));
        usage = usageUntil(path, u -> u.path("totals").path("messagesIn").asLong() != 25);

        JsonNode hours = usage.path("hours");
        assertThat(hours).hasSize(2);
        assertThat(hours.get(0).path("hour").asString()).isEqualTo(previous.toString());
        assertThat(hours.get(0).path("messagesIn").asLong()).isEqualTo(7);
        JsonNode current = hours.get(1);
        assertThat(current.path("hour").asString()).isEqualTo(HOUR.toString());
        assertThat(current.path("messagesIn").asLong()).isEqualTo(3 + 4 + 5 + 6 + 1);
        assertThat(current.path("bytesIn").asLong()).isEqualTo(10 * 19);
        assertThat(current.path("messagesOut").asLong()).isEqualTo(2 * 19);
        assertThat(current.path("bytesOut").asLong()).isEqualTo(20 * 19);
        assertThat(current.path("connectionSeconds").asLong()).isEqualTo(1_500 * 19 / 1000);
        assertThat(usage.path("totals").path("messagesIn").asLong()).isEqualTo(26);
        assertThat(usage.path("totals").path("bytesOut").asLong()).isEqualTo(20 * 26);

        // The billing topic's last record of each tenant-hour holds what PostgreSQL holds.
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        UsageTotals onTopic = lastOnTopic("meter-a", HOUR);
        while (onTopic.messagesIn() != 19 && System.nanoTime() < deadline) {
            Thread.sleep(100);
            onTopic = lastOnTopic("meter-a", HOUR);
        }
        assertThat(onTopic).isEqualTo(new UsageTotals("meter-a", HOUR, 19, 190, 38, 380, 28, 0));
        assertThat(lastOnTopic("meter-a", previous).messagesIn()).isEqualTo(7);
    }

    @Test
    void a_batch_applied_twice_is_added_once() throws Exception {
        createTenant("meter-b");
        List<ConsumerRecord<byte[], byte[]>> batch = List.of(
                record(delta("meter-b", "node-x", 1, 1, HOUR, 2)), record(delta("meter-b", "node-x", 1, 2, HOUR, 3)));

        List<UsageTotals> first = consumer.apply(batch);
        // The consumer died before committing its offsets: the next owner reads the same batch again.
        List<UsageTotals> again = consumer.apply(batch);

        assertThat(first)
                .singleElement()
                .satisfies(t -> assertThat(t.messagesIn()).isEqualTo(5));
        assertThat(again).as("nothing changed, nothing to publish").isEmpty();
        assertThat(get("/api/v1/tenants/meter-b/usage")
                        .body()
                        .path("totals")
                        .path("messagesIn")
                        .asLong())
                .isEqualTo(5);
    }

    private static ConsumerRecord<byte[], byte[]> record(UsageDelta d) {
        return new ConsumerRecord<>(
                TopicNames.METERING_DELTAS,
                0,
                d.sequence(),
                MeteringRecords.deltaKey(d.tenant()),
                MeteringRecords.encode(d));
    }

    @Test
    void stored_bytes_are_the_tenants_retained_payload_bytes_sampled_into_the_hour() throws Exception {
        createTenant("meter-c");
        retain("$tenant/meter-c/a", 100);
        retain("$tenant/meter-c/b/c", 23);
        retain("$tenant/meter-cc/a", 1000);
        retain("meter-c/global", 5000);

        sampler.run();

        JsonNode usage = get("/api/v1/tenants/meter-c/usage").body();
        assertThat(usage.path("hours")).singleElement().satisfies(h -> {
            assertThat(h.path("hour").asString()).isEqualTo(HOUR.toString());
            assertThat(h.path("storedBytes").asLong()).isEqualTo(123);
        });
        assertThat(usage.path("totals").path("storedByteHours").asLong()).isEqualTo(123);

        jdbc.sql("DELETE FROM retained_messages WHERE topic LIKE '$tenant/meter-c/%'")
                .update();
        sampler.run();
        assertThat(get("/api/v1/tenants/meter-c/usage")
                        .body()
                        .path("hours")
                        .get(0)
                        .path("storedBytes")
                        .asLong())
                .isZero();
    }

    private void retain(String topic, int bytes) {
        jdbc.sql("INSERT INTO retained_messages (topic, payload, qos, headers, kafka_partition, kafka_offset)"
                        + " VALUES (:topic, :payload, 0, :headers, 0, 0)"
                        + " ON CONFLICT (topic) DO UPDATE SET payload = EXCLUDED.payload")
                .param("topic", topic)
                .param("payload", new byte[bytes])
                .param("headers", new byte[0])
                .update();
    }

    @Test
    void the_range_is_whole_hours_bounded_and_the_tenant_must_exist() throws Exception {
        createTenant("meter-d");
        JsonNode defaults = get("/api/v1/tenants/meter-d/usage").body();
        Instant to = Instant.parse(defaults.path("to").asString());
        assertThat(to).isEqualTo(HOUR.plus(Duration.ofHours(1)));
        assertThat(Instant.parse(defaults.path("from").asString())).isEqualTo(to.minus(Duration.ofHours(24)));
        assertThat(defaults.path("hours")).isEmpty();
        assertThat(defaults.path("totals").path("messagesIn").asLong()).isZero();

        Response tooLong = get("/api/v1/tenants/meter-d/usage?from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z");
        assertThat(tooLong.status()).isEqualTo(400);
        assertThat(tooLong.body().path("error").asString()).contains("longer than 744 hours");
        Response notAnHour = get("/api/v1/tenants/meter-d/usage?from=2026-01-01T00:30:00Z");
        assertThat(notAnHour.status()).isEqualTo(400);
        assertThat(notAnHour.body().path("error").asString()).contains("whole hour");
        assertThat(get("/api/v1/tenants/meter-d/usage?from=yesterday").status()).isEqualTo(400);
        assertThat(get("/api/v1/tenants/meter-d/usage?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z")
                        .status())
                .isEqualTo(400);
        assertThat(get("/api/v1/tenants/nobody/usage").status()).isEqualTo(404);
        assertThat(exchange(java.net.http.HttpRequest.newBuilder(uri("/api/v1/tenants/meter-d/usage"))
                                .GET()
                                .build())
                        .status())
                .as("admin-authenticated like the rest of /api/v1")
                .isEqualTo(401);
    }
}
