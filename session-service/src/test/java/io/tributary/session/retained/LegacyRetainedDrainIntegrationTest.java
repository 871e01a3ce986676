package io.tributary.session.retained;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.kafka.KafkaClients;
import io.tributary.common.kafka.PublishRecordFormat;
import io.tributary.common.kafka.RetainedRecordFormat;
import io.tributary.common.kafka.TopicNames;
import io.tributary.session.ServiceTestBase;
import io.tributary.session.support.TestEngines;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The upgrade drain: retained PUBLISHes an older transport wrote only to the publish topic, behind the positions the
 * previous versions' retained group committed there, are stored before the retained topic is used; a row written from
 * the retained topic is never replaced by the drain; the group is then marked drained and not read again.
 */
@Order(3)
class LegacyRetainedDrainIntegrationTest extends ServiceTestBase {

    @Autowired
    Admin admin;

    @Autowired
    KafkaClients kafkaClients;

    @Autowired
    RetainedApplier applier;

    @Test
    void retained_records_past_the_old_groups_positions_are_stored_once() throws Exception {
        String group = "legacy-retained-" + System.nanoTime();
        String m = "mig" + System.nanoTime();
        // The old group has read the publish topic up to here.
        Map<TopicPartition, OffsetAndMetadata> positions = new HashMap<>();
        ends().forEach((p, end) -> positions.put(p, new OffsetAndMetadata(end)));
        admin.alterConsumerGroupOffsets(group, positions).all().get(10, TimeUnit.SECONDS);

        try (Producer<byte[], byte[]> producer = producer()) {
            // Newer, through an upgraded producer: on both topics; the retained consumer stores it.
            send(
                    producer,
                    RetainedRecordFormat.withCopies(List.of(record(m + "/new", "from the retained topic", true))));
            waitForPayload(m + "/new", "from the retained topic");
            // What older transports wrote (publish topic only), behind the old group's positions.
            send(producer, List.of(record(m + "/kept", "old", true)));
            send(producer, List.of(record(m + "/gone", "old", true)));
            send(producer, List.of(record(m + "/gone", "", true)));
            send(producer, List.of(record(m + "/live", "not retained", false)));
            send(producer, List.of(record(m + "/new", "stale copy", true)));
        }
        assertThat(payload(m + "/kept")).as("before the drain").isEmpty();

        LegacyRetainedDrain drain = new LegacyRetainedDrain(admin, kafkaClients, applier, group);
        // Every retained record of the publish topic past the positions: the upgraded producer's one too.
        assertThat(drain.drain()).isEqualTo(5);

        assertThat(payload(m + "/kept")).contains("old");
        assertThat(payload(m + "/gone")).isEmpty();
        assertThat(payload(m + "/live")).isEmpty();
        assertThat(payload(m + "/new"))
                .as("a row from the retained topic stays")
                .contains("from the retained topic");

        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata()
                .get(10, TimeUnit.SECONDS);
        Map<TopicPartition, Long> ends = ends();
        assertThat(committed).hasSize(ends.size());
        committed.forEach((p, o) -> {
            assertThat(o.offset()).isEqualTo(ends.get(p));
            assertThat(o.metadata()).isEqualTo(LegacyRetainedDrain.DRAINED);
        });

        // Marked drained: a later start reads nothing, even with records behind the committed positions.
        try (Producer<byte[], byte[]> producer = producer()) {
            send(producer, List.of(record(m + "/after", "publish topic only", true)));
        }
        assertThat(drain.drain()).isZero();
        assertThat(payload(m + "/after")).isEmpty();
    }

    @Test
    void a_group_without_positions_on_the_publish_topic_needs_no_drain() throws Exception {
        LegacyRetainedDrain drain =
                new LegacyRetainedDrain(admin, kafkaClients, applier, "never-existed-" + System.nanoTime());
        assertThat(drain.drain()).isZero();
    }

    private Map<TopicPartition, Long> ends() throws Exception {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
            request.put(new TopicPartition(TopicNames.PUBLISH, p), OffsetSpec.latest());
        }
        Map<TopicPartition, Long> out = new HashMap<>();
        admin.listOffsets(request).all().get(10, TimeUnit.SECONDS).forEach((p, i) -> out.put(p, i.offset()));
        return out;
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, String payload, boolean retain) {
        return PublishRecordFormat.toRecord(
                topic,
                payload.getBytes(StandardCharsets.UTF_8),
                1,
                retain,
                "old-publisher",
                4,
                "old-node",
                null,
                System.currentTimeMillis());
    }

    private static Producer<byte[], byte[]> producer() {
        return TestEngines.kafkaProducer();
    }

    private static void send(Producer<byte[], byte[]> producer, List<ProducerRecord<byte[], byte[]>> records)
            throws Exception {
        for (ProducerRecord<byte[], byte[]> r : records) {
            producer.send(r).get(10, TimeUnit.SECONDS);
        }
    }

    private Optional<String> payload(String topic) {
        return jdbc.sql("SELECT payload FROM retained_messages WHERE topic = :topic")
                .param("topic", topic)
                .query(byte[].class)
                .optional()
                .map(b -> new String(b, StandardCharsets.UTF_8));
    }

    private void waitForPayload(String topic, String payload) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!payload(topic).equals(Optional.of(payload))) {
            assertThat(System.nanoTime()).as("%s stored within 20 s", topic).isLessThan(deadline);
            Thread.sleep(50);
        }
    }
}
