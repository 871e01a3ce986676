package io.tributary.routing.sys;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.kafka.TopicNames;
import io.tributary.kafka.sys.HopLatencyStatistics;
import io.tributary.routing.index.SubscriptionIndex;
import io.tributary.routing.metrics.RoutingMetrics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** A router's $SYS latency figures: what one round publishes, and that a router that stops clears them. */
class RouterSysPublisherTest {

    private final MockProducer<byte[], byte[]> kafka =
            new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    private final RoutingMetrics metrics = new RoutingMetrics(new SimpleMeterRegistry(), new SubscriptionIndex());

    private RouterSysPublisher publisher(String routerId) {
        return new RouterSysPublisher(
                routerId, Duration.ofSeconds(10), kafka, new HopLatencyStatistics(metrics.hopTimers()));
    }

    /** MQTT topic → payload of the records on {@code kafkaTopic}. */
    private static Map<String, String> byTopic(List<ProducerRecord<byte[], byte[]>> records, String kafkaTopic) {
        return records.stream()
                .filter(r -> r.topic().equals(kafkaTopic))
                .collect(Collectors.toMap(
                        r -> new String(r.key(), StandardCharsets.UTF_8),
                        r -> new String(r.value(), StandardCharsets.UTF_8),
                        (a, b) -> b));
    }

    @Test
    void one_round_publishes_the_routers_two_hops_as_retained_qos0_records_in_milliseconds() {
        metrics.publishConsumed(4);
        metrics.batchRouted(TimeUnit.MICROSECONDS.toNanos(1500));
        RouterSysPublisher publisher = publisher("routing-7f-123");

        publisher.publishOnce();

        Map<String, String> stats = byTopic(kafka.history(), TopicNames.PUBLISH);
        // Retained: each figure's copy is on the retained topic too, the retained store's only source.
        assertThat(byTopic(kafka.history(), TopicNames.RETAINED)).isEqualTo(stats);
        assertThat(kafka.history()).hasSize(2 * stats.size());
        assertThat(stats)
                .containsOnlyKeys(
                        "$SYS/broker/routers/routing-7f-123/latency/publish-to-router/p50",
                        "$SYS/broker/routers/routing-7f-123/latency/publish-to-router/p99",
                        "$SYS/broker/routers/routing-7f-123/latency/route/p50",
                        "$SYS/broker/routers/routing-7f-123/latency/route/p99");
        // Micrometer's percentiles are histogram estimates: close to the one sample, not exactly it.
        assertThat(Double.parseDouble(stats.get("$SYS/broker/routers/routing-7f-123/latency/publish-to-router/p50")))
                .isBetween(3.5, 4.5);
        assertThat(Double.parseDouble(stats.get("$SYS/broker/routers/routing-7f-123/latency/route/p99")))
                .isBetween(1.3, 1.7);
        assertThat(stats.values()).allMatch(v -> v.matches("\\d+\\.\\d{3}"));
        for (ProducerRecord<byte[], byte[]> r : kafka.history()) {
            assertThat(r.topic()).isIn(TopicNames.PUBLISH, TopicNames.RETAINED);
            assertThat(RecordHeaders.readFlag(r.headers(), RecordHeaders.RETAIN))
                    .isTrue();
            assertThat(RecordHeaders.readQos(r.headers())).isZero();
        }
        publisher.close();
    }

    @Test
    void a_router_that_stops_clears_its_topics_and_an_instance_id_cannot_add_topic_levels() {
        RouterSysPublisher publisher = publisher("pod/a+#");
        assertThat(publisher.routerId()).isEqualTo("pod_a__");

        publisher.close();

        Map<String, String> cleared = byTopic(kafka.history(), TopicNames.PUBLISH);
        // The deletions reach the retained store through the retained topic.
        assertThat(byTopic(kafka.history(), TopicNames.RETAINED)).isEqualTo(cleared);
        assertThat(cleared).hasSize(4).allSatisfy((topic, value) -> {
            assertThat(topic).startsWith("$SYS/broker/routers/pod_a__/latency/");
            assertThat(value).isEmpty();
        });
    }

    @Test
    void a_stop_with_kafka_gone_stays_within_its_bound_although_every_send_blocks() {
        AtomicInteger sends = new AtomicInteger();
        // What a send does with no broker: it blocks for max.block.ms waiting for metadata, then fails.
        MockProducer<byte[], byte[]> gone =
                new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer()) {
                    @Override
                    public synchronized Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record) {
                        sends.incrementAndGet();
                        try {
                            TimeUnit.MILLISECONDS.sleep(1000);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return CompletableFuture.failedFuture(
                                new org.apache.kafka.common.errors.TimeoutException("not present in metadata"));
                    }
                };
        RouterSysPublisher publisher = new RouterSysPublisher(
                "r", Duration.ofSeconds(10), gone, new HopLatencyStatistics(metrics.hopTimers()));

        long start = System.nanoTime();
        publisher.close();
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        // 8 records (4 topics and their retained copies): one blocked send each took 8 s before.
        assertThat(tookMs).as("stop took %d ms", tookMs).isLessThan(4_000);
        assertThat(sends.get()).isLessThan(8);
    }
}
