package io.tributary.transport.sys;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.kafka.TopicNames;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.uplink.KafkaAvailability;
import io.tributary.transport.uplink.PublishProducer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** One round of a node's $SYS statistics: what it publishes, and that it is an ordinary retained publish record. */
class SysStatsPublisherTest {

    private final MockProducer<byte[], byte[]> kafka =
            new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    private final Admin admin = Admin.create(Map.of("bootstrap.servers", "127.0.0.1:1"));
    private final KafkaAvailability availability = new KafkaAvailability(admin);
    private final TransportMetrics metrics = new TransportMetrics(new SimpleMeterRegistry());

    @AfterEach
    void tearDown() {
        availability.close();
        admin.close(Duration.ZERO);
    }

    @Test
    void one_round_publishes_the_nodes_figures_as_retained_qos0_records() {
        metrics.publishIn(0);
        metrics.publishIn(1);
        metrics.publishIn(2);
        metrics.publishOut(1);
        metrics.downlinkToSocket(TimeUnit.MILLISECONDS.toNanos(3));
        SysStatsPublisher publisher = new SysStatsPublisher(
                "node-7", Duration.ofSeconds(10), new PublishProducer(kafka, metrics, availability), metrics, () -> 4);

        publisher.publishOnce();

        List<ProducerRecord<byte[], byte[]>> records = kafka.history().stream()
                .filter(r -> r.topic().equals(TopicNames.PUBLISH))
                .toList();
        // Retained: each figure's copy is on the retained topic too, the retained store's only source.
        List<ProducerRecord<byte[], byte[]>> copies = kafka.history().stream()
                .filter(r -> r.topic().equals(TopicNames.RETAINED))
                .toList();
        assertThat(copies)
                .extracting(r -> new String(r.key(), StandardCharsets.UTF_8))
                .containsExactlyElementsOf(records.stream()
                        .map(r -> new String(r.key(), StandardCharsets.UTF_8))
                        .toList());
        assertThat(kafka.history()).hasSize(records.size() + copies.size());
        Map<String, String> byTopic = records.stream()
                .collect(Collectors.toMap(
                        r -> new String(r.key(), StandardCharsets.UTF_8),
                        r -> new String(r.value(), StandardCharsets.UTF_8)));
        assertThat(byTopic)
                .containsEntry("$SYS/broker/nodes/node-7/clients/connected", "4")
                .containsEntry("$SYS/broker/nodes/node-7/messages/received", "3")
                .containsEntry("$SYS/broker/nodes/node-7/messages/sent", "1")
                .containsKeys("$SYS/broker/nodes/node-7/uptime", "$SYS/broker/nodes/node-7/version")
                .containsEntry("$SYS/broker/nodes/node-7/latency/publish-ack/p50", "0.000")
                .containsKeys(
                        "$SYS/broker/nodes/node-7/latency/publish-ack/p99",
                        "$SYS/broker/nodes/node-7/latency/downlink-to-node/p50",
                        "$SYS/broker/nodes/node-7/latency/downlink-to-node/p99",
                        "$SYS/broker/nodes/node-7/latency/node-to-socket/p99")
                .hasSize(11);
        // Micrometer's percentiles are histogram estimates: 3 ms reads as about 3 ms, not exactly.
        assertThat(Double.parseDouble(byTopic.get("$SYS/broker/nodes/node-7/latency/node-to-socket/p50")))
                .isBetween(2.5, 3.5);
        assertThat(byTopic.get("$SYS/broker/nodes/node-7/uptime")).matches("\\d+ seconds");
        assertThat(byTopic.get("$SYS/broker/nodes/node-7/version")).startsWith("tributary ");
        for (ProducerRecord<byte[], byte[]> r : records) {
            assertThat(r.topic()).isEqualTo(TopicNames.PUBLISH);
            assertThat(RecordHeaders.readFlag(r.headers(), RecordHeaders.RETAIN))
                    .isTrue();
            assertThat(RecordHeaders.readQos(r.headers())).isZero();
            assertThat(r.headers().lastHeader(RecordHeaders.QOS).value())
                    .isEqualTo("0".getBytes(StandardCharsets.UTF_8));
        }
        publisher.close();
    }
}
