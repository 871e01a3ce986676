package io.tributary.it.mqtt;

import static io.tributary.it.support.Clients.hive5;
import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.RecordTail;
import io.tributary.it.support.TributaryCluster;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The retained topic as a plain Kafka consumer sees it: every retained PUBLISH is on {@code tributary.publish} and,
 * once, on {@code tributary.retained} (same key, payload and headers), acknowledged only after both; non-retained
 * traffic never reaches {@code tributary.retained}. A QoS 2 retained PUBLISH of a persistent session (exactly-once,
 * one Kafka transaction) leaves exactly one committed record on each.
 */
@ExtendWith(LogsOnFailure.class)
class RetainedTopicTest {

    private static final String PUBLISH = "tributary.publish";
    private static final String RETAINED = "tributary.retained";

    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    @Test
    void a_retained_publish_is_on_both_topics_and_other_traffic_only_on_the_publish_topic() throws Exception {
        String prefix = id("rtopic");
        try (RecordTail publishTail = tail(PUBLISH);
                RecordTail retainedTail = tail(RETAINED)) {
            Mqtt5BlockingClient publisher = hive5(cluster.mqttPort(0), id("rtopic-pub"));
            publisher.connect();
            try {
                send(publisher, prefix + "/plain0", "p0", MqttQos.AT_MOST_ONCE, false);
                send(publisher, prefix + "/plain1", "p1", MqttQos.AT_LEAST_ONCE, false);
                send(publisher, prefix + "/kept", "k1", MqttQos.AT_LEAST_ONCE, true);
                send(publisher, prefix + "/kept", "", MqttQos.AT_LEAST_ONCE, true); // deletes it
                send(publisher, prefix + "/plain2", "p2", MqttQos.EXACTLY_ONCE, false);
                send(publisher, prefix + "/end", "e", MqttQos.AT_LEAST_ONCE, true);
            } finally {
                publisher.disconnect();
            }
            // The last retained PUBLISH was acknowledged: both of its records are in Kafka (QoS 0 ones may be on
            // other partitions, a little later: hence the quiet time).
            publishTail.settle(prefix + "/end");
            retainedTail.settle(prefix + "/end");
            List<ConsumerRecord<byte[], byte[]>> published = publishTail.seen();
            List<ConsumerRecord<byte[], byte[]>> retained = retainedTail.seen();

            assertThat(keys(published, prefix))
                    .containsExactlyInAnyOrder(
                            prefix + "/plain0",
                            prefix + "/plain1",
                            prefix + "/kept",
                            prefix + "/kept",
                            prefix + "/plain2",
                            prefix + "/end");
            // Across partitions in any order; the two records of one topic share a partition, in order (below).
            assertThat(keys(retained, prefix))
                    .containsExactlyInAnyOrder(prefix + "/kept", prefix + "/kept", prefix + "/end");
            List<ConsumerRecord<byte[], byte[]>> kept = retained.stream()
                    .filter(r -> key(r).equals(prefix + "/kept"))
                    .toList();
            assertThat(new String(kept.get(0).value(), StandardCharsets.UTF_8)).isEqualTo("k1");
            assertThat(kept.get(1).value())
                    .as("deletion: an empty record, not a tombstone")
                    .isNotNull()
                    .isEmpty();
            ConsumerRecord<byte[], byte[]> publishEnd = published.stream()
                    .filter(r -> key(r).equals(prefix + "/end"))
                    .findFirst()
                    .orElseThrow();
            ConsumerRecord<byte[], byte[]> retainedEnd = retained.stream()
                    .filter(r -> key(r).equals(prefix + "/end"))
                    .findFirst()
                    .orElseThrow();
            assertThat(retainedEnd.value()).isEqualTo(publishEnd.value());
            assertThat(retainedEnd.headers().toArray())
                    .containsExactly(publishEnd.headers().toArray());
        }
    }

    @Test
    void an_exactly_once_qos2_retained_publish_leaves_one_record_on_each_topic() throws Exception {
        String topic = id("rtopic-eos") + "/state";
        try (RecordTail publishTail = tail(PUBLISH);
                RecordTail retainedTail = tail(RETAINED);
                RecordTail markers = tail("tributary.qos2-markers")) {
            String clientId = id("rtopic-eos-pub");
            Mqtt5BlockingClient publisher = hive5(cluster.mqttPort(0), clientId);
            // A persistent session: QoS 2 goes through the node's transactional producer.
            publisher.connectWith().cleanStart(true).sessionExpiryInterval(300).send();
            try {
                send(publisher, topic, "once", MqttQos.EXACTLY_ONCE, true);
            } finally {
                publisher.disconnect();
            }
            assertThat(markers.until(null).stream()
                            .anyMatch(r -> new String(r.key(), StandardCharsets.UTF_8).contains(clientId)))
                    .as("the publish was stored with a QoS 2 marker, in a transaction")
                    .isTrue();
            // Anything left to arrive would be in Kafka already: the PUBREC came after the commit.
            assertThat(publishTail.settle(topic)).hasSize(1);
            assertThat(retainedTail.settle(topic)).hasSize(1);
        }
    }

    private static void send(Mqtt5BlockingClient client, String topic, String payload, MqttQos qos, boolean retain) {
        client.publishWith()
                .topic(topic)
                .payload(payload.getBytes(StandardCharsets.UTF_8))
                .qos(qos)
                .retain(retain)
                .send();
    }

    private static String key(ConsumerRecord<byte[], byte[]> r) {
        return r.key() == null ? "" : new String(r.key(), StandardCharsets.UTF_8);
    }

    private static List<String> keys(List<ConsumerRecord<byte[], byte[]>> records, String prefix) {
        return records.stream()
                .map(RetainedTopicTest::key)
                .filter(k -> k.startsWith(prefix + "/"))
                .toList();
    }

    private static RecordTail tail(String topic) {
        return new RecordTail(cluster.kafkaBootstrapServers(), topic);
    }
}
