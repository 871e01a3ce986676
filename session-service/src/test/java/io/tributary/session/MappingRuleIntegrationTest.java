package io.tributary.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.kafka.TopicNames;
import io.tributary.common.mapping.MappingRuleRecords;
import io.tributary.session.support.FeedReader;
import io.tributary.session.support.TestEngines;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * MQTT-to-Kafka mapping rules over the admin API against real PostgreSQL and Kafka: validation (400 with the reason),
 * topic creation on request, the record every transport node reads from {@code tributary.mapping-rules}, removal as a
 * tombstone.
 */
@Order(3)
class MappingRuleIntegrationTest extends ServiceTestBase {

    private static final String PATH = "/api/v1/rules/mqtt-to-kafka";

    @AfterEach
    void removeRules() {
        jdbc.sql("DELETE FROM mapping_rules").update();
    }

    private Response create(Map<String, Object> body) throws Exception {
        return exchange(request(PATH)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)))
                .build());
    }

    private static Map<String, Object> rule(String filter, String topic, String key, Integer partitions) {
        Map<String, Object> body = new HashMap<>();
        body.put("filter", filter);
        body.put("kafkaTopic", topic);
        body.put("key", key);
        body.put("partitions", partitions);
        return body;
    }

    private static Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestEngines.kafkaBootstrap()));
    }

    @Test
    void a_rule_creates_its_topic_on_request_and_reaches_the_rules_topic_and_its_removal_is_a_tombstone()
            throws Exception {
        Response missing = create(rule("vehicles/{vin}/telemetry/#", "it-vehicle-telemetry", "{vin}", null));
        assertThat(missing.status()).isEqualTo(400);
        assertThat(missing.body().path("error").asString())
                .contains("does not exist")
                .contains("partitions");

        Response created = create(rule("vehicles/{vin}/telemetry/#", "it-vehicle-telemetry", "{vin}", 4));
        assertThat(created.status()).as("%s", created.body()).isEqualTo(201);
        long id = created.body().path("id").asLong();
        assertThat(created.body().path("key").asString()).isEqualTo("{vin}");
        try (Admin admin = admin()) {
            assertThat(admin.describeTopics(List.of("it-vehicle-telemetry"))
                            .allTopicNames()
                            .get(10, TimeUnit.SECONDS)
                            .get("it-vehicle-telemetry")
                            .partitions())
                    .hasSize(4);
        }
        ConsumerRecord<byte[], byte[]> record = lastRuleRecord(id);
        assertThat(new String(record.value(), StandardCharsets.UTF_8)).isEqualTo("vehicles/{vin}/telemetry/#");
        assertThat(RecordHeaders.readString(record.headers(), MappingRuleRecords.KAFKA_TOPIC))
                .isEqualTo("it-vehicle-telemetry");
        assertThat(RecordHeaders.readString(record.headers(), MappingRuleRecords.KEY_SOURCE))
                .isEqualTo("{vin}");

        assertThat(get(PATH).body().findValuesAsString("kafkaTopic")).containsExactly("it-vehicle-telemetry");
        assertThat(create(rule("vehicles/{vin}/telemetry/#", "it-vehicle-telemetry", "topic", null))
                        .status())
                .as("same filter and topic twice")
                .isEqualTo(409);
        assertThat(create(rule("vehicles/{vin}/telemetry/#", "it-vehicle-telemetry", "topic", 2))
                        .body()
                        .path("error")
                        .asString())
                .contains("exists with 4 partitions");

        assertThat(send("DELETE", PATH + "/" + id).status()).isEqualTo(204);
        assertThat(lastRuleRecord(id).value()).as("tombstone").isNull();
        assertThat(get(PATH + "/" + id).status()).isEqualTo(404);
    }

    @Test
    void bad_rules_are_refused_with_the_reason_and_nothing_is_stored() throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic("it-existing", 1, (short) 1)))
                    .all()
                    .get(10, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(org.apache.kafka.common.errors.TopicExistsException.class);
        }
        Map<Map<String, Object>, String> refusals = Map.of(
                rule("a/#/b", "it-existing", null, null), "'#' must be the last level",
                rule("a/b+/c", "it-existing", null, null), "whole level",
                rule("a/{vin}/#", "it-existing", "{serial}", null), "names no level",
                rule("a/{vin}", "it-existing", "partition", null), "key must be",
                rule("a/b", TopicNames.PUBLISH, null, null), "reserved",
                rule("a/b", "bad topic name", null, null), "kafkaTopic",
                rule("$share/g/a", "it-existing", null, null), "'$'",
                rule("a/b", "it-existing", null, 0), "partitions must be");
        for (Map.Entry<Map<String, Object>, String> refusal : refusals.entrySet()) {
            Response r = create(refusal.getKey());
            assertThat(r.status()).as("%s", refusal.getKey()).isEqualTo(400);
            assertThat(r.body().path("error").asString())
                    .as("%s", refusal.getKey())
                    .contains(refusal.getValue());
        }
        assertThat(create(Map.of()).status()).isEqualTo(400);
        assertThat(jdbc.sql("SELECT count(*) FROM mapping_rules")
                        .query(Long.class)
                        .single())
                .isZero();
        assertThat(create(rule("a/{vin}", "it-existing", "{vin}", null)).status())
                .isEqualTo(201);
    }

    @Test
    void the_rules_api_needs_the_admin_token() throws Exception {
        HttpRequest anonymous = HttpRequest.newBuilder(uri(PATH)).GET().build();
        assertThat(http.send(anonymous, java.net.http.HttpResponse.BodyHandlers.ofString())
                        .statusCode())
                .isEqualTo(401);
    }

    private static ConsumerRecord<byte[], byte[]> lastRuleRecord(long id) {
        List<ConsumerRecord<byte[], byte[]>> records = FeedReader.withKey(
                FeedReader.readAll(TestEngines.kafkaBootstrap(), TopicNames.MAPPING_RULES), utf8(Long.toString(id)));
        assertThat(records).isNotEmpty();
        return records.get(records.size() - 1);
    }
}
