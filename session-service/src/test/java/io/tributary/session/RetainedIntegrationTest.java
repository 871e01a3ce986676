package io.tributary.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.kafka.RetainedRecordFormat;
import io.tributary.common.kafka.TopicNames;
import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.SessionApi;
import io.tributary.common.session.SubscribeApi;
import io.tributary.session.support.TestEngines;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Retained messages end to end inside session-service: records on tributary.publish and their copies on
 * tributary.retained (as transport nodes write them) → retained consumer → PostgreSQL → SUBSCRIBE answers, with Retain Handling, deletion by an empty payload,
 * wildcard and {@code $} matching, expiry, catch-up, subscription identifiers, the admin API and the metrics.
 */
@Order(3)
class RetainedIntegrationTest extends ServiceTestBase {

    private static Producer<byte[], byte[]> producer;

    @BeforeAll
    static void producer() {
        producer = TestEngines.kafkaProducer();
    }

    @AfterAll
    static void closeProducer() {
        producer.close();
    }

    @Test
    void retained_publish_acknowledged_before_subscribe_is_returned_with_its_metadata() throws Exception {
        publish("ret/meta/1", "one", 1, true, 0L, null, "k", "v1", "k", "v2");
        // No waiting here: the SUBSCRIBE itself must wait until the retained consumer has caught up.
        SubscribeApi.SubscribeResponse r =
                subscribe("ret-meta", new SubscribeApi.Subscription("ret/meta/+", 2, false, false, 0));
        assertThat(r.reasonCodes()).containsExactly(2);
        assertThat(r.retained()).hasSize(1);
        List<SubscribeApi.RetainedMessage> got = r.retained().get(0);
        assertThat(got).extracting(SubscribeApi.RetainedMessage::topic).containsExactly("ret/meta/1");
        SubscribeApi.RetainedMessage m = got.get(0);
        assertThat(new String(m.payload(), StandardCharsets.UTF_8)).isEqualTo("one");
        assertThat(m.qos()).isEqualTo(1);
        assertThat(m.headers())
                .extracting(SubscribeApi.Header::name)
                .contains(RecordHeaders.QOS, RecordHeaders.RECEIVED_AT)
                .containsSubsequence("mqtt5.user.k", "mqtt5.user.k");
        assertThat(m.headers().stream()
                        .filter(h -> h.name().equals("mqtt5.user.k"))
                        .map(h -> new String(h.value(), StandardCharsets.UTF_8)))
                .containsExactly("v1", "v2");
    }

    @Test
    void a_later_retained_publish_replaces_and_an_empty_payload_deletes() throws Exception {
        publish("ret/del/1", "first", 0, true, 0L, null);
        publish("ret/del/1", "second", 0, true, 0L, null);
        publish("ret/del/2", "stays", 0, true, 0L, null);
        publish("ret/del/3", "not retained", 0, false, 0L, null);
        SubscribeApi.SubscribeResponse before = subscribe("ret-del-a", sub("ret/del/#", 1));
        assertThat(before.retained().get(0))
                .extracting(m -> new String(m.payload(), StandardCharsets.UTF_8))
                .containsExactly("second", "stays");

        publish("ret/del/1", "", 0, true, 0L, null);
        SubscribeApi.SubscribeResponse after = subscribe("ret-del-b", sub("ret/del/#", 1));
        assertThat(after.retained().get(0))
                .extracting(SubscribeApi.RetainedMessage::topic)
                .containsExactly("ret/del/2");
        assertThat(jdbc.sql("SELECT count(*) FROM retained_messages WHERE topic = 'ret/del/1'")
                        .query(Long.class)
                        .single())
                .isZero();
    }

    @Test
    void retain_handling_0_sends_1_sends_only_for_a_new_subscription_2_never() throws Exception {
        publish("ret/rh/1", "x", 1, true, 0L, null);
        String client = "ret-rh";
        long epoch = connect(client, "node-a", true, 0).epoch();
        SubscribeApi.SubscribeResponse never =
                subscribe(client, epoch, new SubscribeApi.Subscription("ret/rh/1", 1, false, false, 2));
        assertThat(never.retained().get(0)).isEmpty();
        // The subscription exists now (created with handling 2), so handling 1 does not send either.
        assertThat(subscribe(client, epoch, new SubscribeApi.Subscription("ret/rh/1", 1, false, false, 1))
                        .retained()
                        .get(0))
                .isEmpty();
        assertThat(subscribe(client, epoch, new SubscribeApi.Subscription("ret/rh/+", 1, false, false, 1))
                        .retained()
                        .get(0))
                .as("new subscription, handling 1")
                .hasSize(1);
        assertThat(subscribe(client, epoch, new SubscribeApi.Subscription("ret/rh/+", 1, false, false, 1))
                        .retained()
                        .get(0))
                .as("existing subscription, handling 1")
                .isEmpty();
        assertThat(subscribe(client, epoch, new SubscribeApi.Subscription("ret/rh/+", 1, false, false, 0))
                        .retained()
                        .get(0))
                .as("existing subscription, handling 0")
                .hasSize(1);

        SubscribeApi.SubscribeResponse mixed = subscribe(client, epoch, sub("ret/rh/#/x", 1), sub("ret/rh/1", 0));
        assertThat(mixed.reasonCodes()).containsExactly(0x8F, 0);
        assertThat(mixed.retained().get(0)).as("refused filter").isEmpty();
        assertThat(mixed.retained().get(1)).hasSize(1);
    }

    @Test
    void wildcards_match_per_mqtt_rules_and_leading_wildcards_skip_dollar_topics() throws Exception {
        publish("$retw/a", "dollar", 0, true, 0L, null);
        publish("retw/a", "a", 0, true, 0L, null);
        publish("retw/b/c", "bc", 0, true, 0L, null);
        publish("retwX/a", "other prefix", 0, true, 0L, null);
        SubscribeApi.SubscribeResponse r = subscribe(
                "ret-wild", sub("retw/#", 0), sub("+/a", 0), sub("$retw/#", 0), sub("#", 0), sub("retw/+", 0));
        assertThat(topics(r, 0)).containsExactly("retw/a", "retw/b/c");
        assertThat(topics(r, 1)).contains("retw/a", "retwX/a").doesNotContain("$retw/a");
        assertThat(topics(r, 2)).containsExactly("$retw/a");
        assertThat(topics(r, 3)).contains("retw/a", "retw/b/c", "retwX/a").noneMatch(t -> t.startsWith("$"));
        assertThat(topics(r, 4)).containsExactly("retw/a");
    }

    @Test
    void a_subscribe_batch_answers_each_clients_exact_and_wildcard_filters_with_their_own_messages() throws Exception {
        long longAgo = System.currentTimeMillis() - 10_000;
        publish("ret/batch/1", "one", 1, true, 0L, null);
        publish("ret/batch/2", "two", 0, true, 0L, null);
        publish("ret/batch/old", "expired", 0, true, longAgo, 5);
        long a = connect("ret-batch-a", "node-a", true, 0).epoch();
        long b = connect("ret-batch-b", "node-a", true, 0).epoch();
        long c = connect("ret-batch-c", "node-a", true, 0).epoch();
        Response r = post(
                SessionApi.SUBSCRIBE_BATCH,
                new SubscribeApi.SubscribeBatch(List.of(
                        new SubscribeApi.SubscribeRequest(
                                "ret-batch-a", a, "node-a", List.of(sub("ret/batch/1", 1), sub("ret/batch/none", 1))),
                        new SubscribeApi.SubscribeRequest(
                                "ret-batch-b", b, "node-a", List.of(sub("ret/batch/+", 0), sub("ret/batch/1", 0))),
                        new SubscribeApi.SubscribeRequest(
                                "ret-batch-c",
                                c,
                                "node-a",
                                List.of(
                                        sub("ret/batch/old", 0),
                                        new SubscribeApi.Subscription("ret/batch/2", 0, false, false, 2),
                                        sub("ret/batch/2", 0))))));
        assertThat(r.status()).as("subscribe batch: %s", r.body()).isEqualTo(200);
        List<SubscribeApi.SubscribeOutcome> outcomes = json.treeToValue(
                        r.body(), SubscribeApi.SubscribeBatchResponse.class)
                .outcomes();
        assertThat(topics(outcomes.get(0).done(), 0)).containsExactly("ret/batch/1");
        assertThat(outcomes.get(0).done().retained().get(0).get(0).payload())
                .asString(StandardCharsets.UTF_8)
                .isEqualTo("one");
        assertThat(topics(outcomes.get(0).done(), 1)).isEmpty();
        assertThat(topics(outcomes.get(1).done(), 0)).containsExactly("ret/batch/1", "ret/batch/2");
        assertThat(topics(outcomes.get(1).done(), 1)).containsExactly("ret/batch/1");
        assertThat(topics(outcomes.get(2).done(), 0)).as("expired").isEmpty();
        assertThat(topics(outcomes.get(2).done(), 1)).as("retain handling 2").isEmpty();
        assertThat(topics(outcomes.get(2).done(), 2)).containsExactly("ret/batch/2");
    }

    @Test
    void expired_retained_messages_are_not_returned() throws Exception {
        long longAgo = System.currentTimeMillis() - 10_000;
        publish("ret/exp/old", "old", 0, true, longAgo, 5);
        publish("ret/exp/fresh", "fresh", 0, true, 0L, 3600);
        SubscribeApi.SubscribeResponse r = subscribe("ret-exp", sub("ret/exp/+", 0));
        assertThat(topics(r, 0)).containsExactly("ret/exp/fresh");
        Object expiresAt = jdbc.sql("SELECT expires_at FROM retained_messages WHERE topic = 'ret/exp/fresh'")
                .query()
                .singleValue();
        assertThat(toInstant(expiresAt)).isAfter(java.time.Instant.now().plusSeconds(3500));
    }

    @Test
    void subscription_identifier_is_stored_and_comes_back_with_a_resumed_session() throws Exception {
        long epoch = connect("ret-sid", "node-a", true, 3600).epoch();
        subscribe(
                "ret-sid",
                epoch,
                new SubscribeApi.Subscription("sid/a", 1, false, false, 0, 42),
                new SubscribeApi.Subscription("sid/b", 1, false, false, 0));
        ConnectApi.ConnectResponse resumed = connect("ret-sid", "node-b", false, 3600);
        assertThat(resumed.sessionPresent()).isTrue();
        assertThat(resumed.subscriptions())
                .extracting(SubscribeApi.Subscription::filter, SubscribeApi.Subscription::subscriptionId)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("sid/a", 42),
                        org.assertj.core.groups.Tuple.tuple("sid/b", null));
        Response bad = post(
                SessionApi.SUBSCRIBE,
                new SubscribeApi.SubscribeRequest(
                        "ret-sid",
                        resumed.epoch(),
                        "node-b",
                        List.of(new SubscribeApi.Subscription("sid/c", 1, false, false, 0, 0))));
        assertThat(bad.status()).isEqualTo(400);
    }

    @Test
    void admin_api_lists_pages_and_deletes_retained_messages() throws Exception {
        publish("ret/adm/a", "text", 1, true, 0L, null);
        publish("ret/adm/b", new byte[] {(byte) 0xff, 0}, 0, true, 0L, null);
        subscribe("ret-adm", sub("ret/adm/a", 0)); // waits for the store to catch up

        Response page = get("/api/v1/retained?prefix=" + enc("ret/adm/") + "&size=1");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body().get("total").asLong()).isEqualTo(2);
        JsonNode first = page.body().get("items").get(0);
        assertThat(first.get("topic").asString()).isEqualTo("ret/adm/a");
        assertThat(first.get("payloadUtf8").asString()).isEqualTo("text");
        assertThat(first.get("payloadBase64").asString()).isEqualTo("dGV4dA==");
        assertThat(first.get("qos").asInt()).isEqualTo(1);
        JsonNode second = get("/api/v1/retained?prefix=" + enc("ret/adm/") + "&size=1&page=1")
                .body()
                .get("items")
                .get(0);
        assertThat(second.get("topic").asString()).isEqualTo("ret/adm/b");
        assertThat(second.get("payloadUtf8").isNull()).isTrue();
        assertThat(get("/api/v1/retained?size=0").status()).isEqualTo(400);

        assertThat(send("DELETE", "/api/v1/retained?topic=" + enc("ret/adm/a")).status())
                .isEqualTo(204);
        assertThat(send("DELETE", "/api/v1/retained?topic=" + enc("ret/adm/a")).status())
                .isEqualTo(404);
        assertThat(subscribe("ret-adm-2", sub("ret/adm/+", 0)).retained().get(0))
                .extracting(SubscribeApi.RetainedMessage::topic)
                .containsExactly("ret/adm/b");
    }

    @Test
    void metrics_count_applied_records() throws Exception {
        publish("ret/metric/1", "m", 0, true, 0L, null);
        subscribe("ret-metric", sub("ret/metric/1", 0));
        String scrape = scrape();
        assertThat(metricValue(scrape, "tributary_retained_updates_total")).isPositive();
        assertThat(scrape).contains("tributary_retained_messages");
    }

    @Test
    void non_retained_traffic_is_committed_at_most_once_per_commit_interval_and_catch_up_still_holds()
            throws Exception {
        double commitsBefore = retainedCommits();
        long started = System.nanoTime();
        for (int i = 0; i < 100; i++) {
            // Acknowledged one at a time: the retained consumer polls them in many small batches.
            publish("ret/paced/" + i, "live " + i, 0, false, 0L, null);
        }
        publish("ret/paced/last", "kept", 1, true, 0L, null);
        double elapsedSeconds = (System.nanoTime() - started) / 1e9;

        // No waiting: the SUBSCRIBE itself waits for the consumer to pass the publish topic's end offsets.
        SubscribeApi.SubscribeResponse r = subscribe("ret-paced", sub("ret/paced/#", 1));
        assertThat(r.retained().get(0))
                .extracting(SubscribeApi.RetainedMessage::topic)
                .containsExactly("ret/paced/last");

        // A commit per polled batch would be close to 100 here; one per 25 ms allows elapsed / 25 ms (+ slack).
        double commits = retainedCommits() - commitsBefore;
        assertThat(commits).isLessThanOrEqualTo(Math.ceil(elapsedSeconds / 0.025) + 3);
    }

    @Test
    void non_retained_publishes_are_never_fetched_by_the_retained_consumer() throws Exception {
        // Caught up first, so the count below has only this test's records to see.
        publish("ret/only/first", "f", 1, true, 0L, null);
        subscribe("ret-only-a", sub("ret/only/first", 1));
        double before = retainedRecordsConsumed();
        for (int i = 0; i < 100; i++) {
            publish("ret/only/live/" + i, "live " + i, 0, false, 0L, null);
        }
        publish("ret/only/last", "kept", 1, true, 0L, null);
        SubscribeApi.SubscribeResponse r = subscribe("ret-only-b", sub("ret/only/last", 1));
        assertThat(r.retained().get(0))
                .extracting(SubscribeApi.RetainedMessage::topic)
                .containsExactly("ret/only/last");
        // Reading the publish topic, the consumer fetched all 101 records to keep one.
        assertThat(retainedRecordsConsumed() - before).isEqualTo(1);
    }

    /** Records the retained consumer has fetched so far, from Kafka's client metrics. */
    private double retainedRecordsConsumed() throws Exception {
        String scrape = scrape();
        double sum = 0;
        boolean found = false;
        for (String line : scrape.split("\n")) {
            if (line.startsWith("kafka_consumer_fetch_manager_records_consumed_total{")
                    && line.contains("client_id=\"session-service-retained-")
                    && !line.contains("topic=")) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                found = true;
            }
        }
        assertThat(found).as("records_consumed_total of the retained consumer").isTrue();
        return sum;
    }

    /** The retained consumer's offset commits so far, from Kafka's client metrics. */
    private double retainedCommits() throws Exception {
        String scrape = scrape();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                        "kafka_consumer_coordinator_commit_total\\{[^}]*client_id=\"session-service-retained-[^}]*} (\\S+)")
                .matcher(scrape);
        assertThat(m.find())
                .as("commit_total of the retained consumer in %s", scrape.length())
                .isTrue();
        return Double.parseDouble(m.group(1));
    }

    // --- helpers ---

    private void publish(
            String topic,
            String payload,
            int qos,
            boolean retain,
            long receivedAt,
            Integer expiry,
            String... userProperties)
            throws Exception {
        publish(topic, payload.getBytes(StandardCharsets.UTF_8), qos, retain, receivedAt, expiry, userProperties);
    }

    private void publish(
            String topic,
            byte[] payload,
            int qos,
            boolean retain,
            long receivedAt,
            Integer expiry,
            String... userProperties)
            throws Exception {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(TopicNames.PUBLISH, utf8(topic), payload);
        record.headers().add(new RecordHeader(RecordHeaders.QOS, new byte[] {(byte) qos}));
        record.headers().add(new RecordHeader(RecordHeaders.RETAIN, RecordHeaders.flag(retain)));
        record.headers().add(new RecordHeader(RecordHeaders.CLIENT_ID, utf8("publisher")));
        record.headers()
                .add(new RecordHeader(
                        RecordHeaders.RECEIVED_AT,
                        RecordHeaders.int64(receivedAt == 0 ? System.currentTimeMillis() : receivedAt)));
        if (expiry != null) {
            record.headers().add(new RecordHeader(RecordHeaders.MESSAGE_EXPIRY, RecordHeaders.int32(expiry)));
        }
        for (int i = 0; i + 1 < userProperties.length; i += 2) {
            record.headers()
                    .add(new RecordHeader(
                            RecordHeaders.USER_PROPERTY_PREFIX + userProperties[i], utf8(userProperties[i + 1])));
        }
        // As a transport node writes it: the publish record and, when retained, its copy on the retained topic.
        for (ProducerRecord<byte[], byte[]> r : RetainedRecordFormat.withCopies(java.util.List.of(record))) {
            producer.send(r).get(10, TimeUnit.SECONDS);
        }
    }

    private SubscribeApi.SubscribeResponse subscribe(String clientId, SubscribeApi.Subscription... subscriptions)
            throws Exception {
        long epoch = connect(clientId, "node-a", true, 0).epoch();
        return subscribe(clientId, epoch, subscriptions);
    }

    private SubscribeApi.SubscribeResponse subscribe(
            String clientId, long epoch, SubscribeApi.Subscription... subscriptions) throws Exception {
        Response r = post(
                SessionApi.SUBSCRIBE,
                new SubscribeApi.SubscribeRequest(clientId, epoch, "node-a", List.of(subscriptions)));
        assertThat(r.status()).as("subscribe: %s", r.body()).isEqualTo(200);
        return json.treeToValue(r.body(), SubscribeApi.SubscribeResponse.class);
    }

    private static List<String> topics(SubscribeApi.SubscribeResponse r, int index) {
        return r.retained().get(index).stream()
                .map(SubscribeApi.RetainedMessage::topic)
                .toList();
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
