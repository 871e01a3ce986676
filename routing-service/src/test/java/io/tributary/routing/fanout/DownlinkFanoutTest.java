package io.tributary.routing.fanout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.common.kafka.Partitioning;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.kafka.TopicNames;
import io.tributary.common.subscription.SubscriptionRecord;
import io.tributary.kafka.tracing.HopTracing;
import io.tributary.routing.index.SubscriptionChange;
import io.tributary.routing.index.SubscriptionIndex;
import io.tributary.routing.metrics.RoutingMetrics;
import io.tributary.sessionqueue.QueueAppender;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.MockAdminClient;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A batch's downlink records are sent without waiting for their acknowledgements (the router reads the next batch
 * meanwhile), and the batch's offsets are handed out for commit only once every record is acknowledged.
 */
class DownlinkFanoutTest {

    private static final int PARTITIONS = 4;
    private static final String NODE = "node-a";
    private static final String TOPIC = "meters/42/power";

    /** No subscription here is persistent: a queue append would be a routing mistake. */
    private static final QueueAppender NO_QUEUES = (clientId, partition, messages, limit) -> {
        throw new AssertionError("no persistent session in this test, yet a queue append for " + clientId);
    };

    private final MockProducer<byte[], byte[]> producer =
            new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer());
    private final Node broker = new Node(0, "127.0.0.1", 9092);
    private final MockAdminClient admin = new MockAdminClient(List.of(broker), broker);
    private final SubscriptionIndex index = new SubscriptionIndex();
    private DownlinkFanout fanout;

    @BeforeEach
    void setUp() throws Exception {
        admin.createTopics(List.of(new NewTopic(TopicNames.downlink(NODE), 1, (short) 1)))
                .all()
                .get(5, TimeUnit.SECONDS);
        for (int p = 0; p < PARTITIONS; p++) {
            index.ownPartition(p);
        }
        String filter = "meters/+/power";
        SubscriptionRecord subscription = new SubscriptionRecord("dashboard", filter, NODE, 1, false, false, 0, 1);
        index.apply(SubscriptionChange.decode(
                TopicNames.subscriptionsFor(filter),
                Partitioning.partitionFor(filter, PARTITIONS),
                subscription.key(),
                subscription.encode()));
        fanout = new DownlinkFanout(
                producer,
                new DeliveryPlanner(index),
                new DownlinkTopicCache(
                        admin, Duration.ofMinutes(1), Duration.ofSeconds(1), Duration.ofSeconds(5), System::nanoTime),
                new RoutingMetrics(new SimpleMeterRegistry(), index),
                Duration.ofSeconds(30),
                NO_QUEUES,
                Duration.ofSeconds(5),
                () -> true,
                HopTracing.OFF);
    }

    @AfterEach
    void tearDown() {
        admin.close();
    }

    @Test
    void send_returns_before_the_acknowledgements_and_await_hands_out_the_offsets_once_they_came() throws Exception {
        int partition = Partitioning.partitionFor(TOPIC, PARTITIONS);
        ConsumerRecords<byte[], byte[]> batch = batch(partition, 7, 8);

        // Nothing is acknowledged yet (the producer does not complete sends by itself): send must not wait for it.
        DownlinkFanout.InFlight inFlight = fanout.send(batch, System.nanoTime());

        assertThat(producer.history()).hasSize(2).allSatisfy(sent -> {
            assertThat(sent.topic()).isEqualTo(TopicNames.downlink(NODE));
            assertThat(new String(sent.key(), StandardCharsets.UTF_8)).isEqualTo(TOPIC);
        });
        CompletableFuture<Map<TopicPartition, OffsetAndMetadata>> settled =
                CompletableFuture.supplyAsync(inFlight::await);
        assertThat(settled).as("offsets handed out before any acknowledgement").isNotDone();
        producer.completeNext();
        // Still one record unacknowledged: the batch must not be committable. (A wrong await returns at once.)
        Thread.sleep(300);
        assertThat(settled)
                .as("offsets handed out with one acknowledgement missing")
                .isNotDone();

        producer.completeNext();

        assertThat(settled.get(5, TimeUnit.SECONDS))
                .containsExactly(
                        Map.entry(new TopicPartition(TopicNames.PUBLISH, partition), new OffsetAndMetadata(9)));
        assertThat(inFlight.batch()).isSameAs(batch);
    }

    @Test
    void a_record_not_acknowledged_fails_the_batch_so_that_it_is_routed_again() {
        int partition = Partitioning.partitionFor(TOPIC, PARTITIONS);
        DownlinkFanout.InFlight inFlight = fanout.send(batch(partition, 3), System.nanoTime());

        producer.errorNext(new org.apache.kafka.common.errors.TimeoutException("no leader"));

        assertThatThrownBy(inFlight::await)
                .isInstanceOf(DeliveryFailedException.class)
                .hasMessageContaining("not acknowledged");
    }

    private static ConsumerRecords<byte[], byte[]> batch(int partition, long... offsets) {
        TopicPartition publishPartition = new TopicPartition(TopicNames.PUBLISH, partition);
        List<ConsumerRecord<byte[], byte[]>> records = new java.util.ArrayList<>();
        for (long offset : offsets) {
            ConsumerRecord<byte[], byte[]> publish = new ConsumerRecord<>(
                    publishPartition.topic(),
                    partition,
                    offset,
                    0L,
                    TimestampType.CREATE_TIME,
                    -1,
                    -1,
                    TOPIC.getBytes(StandardCharsets.UTF_8),
                    ("17." + offset).getBytes(StandardCharsets.UTF_8),
                    new org.apache.kafka.common.header.internals.RecordHeaders(),
                    Optional.empty());
            publish.headers().add(RecordHeaders.CLIENT_ID, "meter-42".getBytes(StandardCharsets.UTF_8));
            records.add(publish);
        }
        return new ConsumerRecords<>(Map.of(publishPartition, records), Map.of());
    }
}
