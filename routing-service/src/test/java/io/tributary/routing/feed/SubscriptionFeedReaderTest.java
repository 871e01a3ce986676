package io.tributary.routing.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.common.kafka.Partitioning;
import io.tributary.common.kafka.TopicLayout;
import io.tributary.common.subscription.SubscriptionRecord;
import io.tributary.common.subscription.SubscriptionRecords;
import io.tributary.devstack.kafka.EmbeddedKafka;
import io.tributary.routing.index.SubscriptionIndex;
import io.tributary.routing.metrics.RoutingMetrics;
import io.tributary.routing.support.TestKafka;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The feed reader's catch-up against a real Kafka, with the feed consumer in the state it is in on an idle router: a
 * fetch parked at the broker, waiting for data that does not come.
 */
class SubscriptionFeedReaderTest {

    private static final int PUBLISH_PARTITIONS = 2;
    private static final TopicLayout LAYOUT = TopicLayout.singleBroker(PUBLISH_PARTITIONS, 2, 1, Duration.ofHours(1));
    /**
     * Far longer than the catch-up timeout: a catch-up that has to wait for the parked fetch cannot finish in time,
     * whatever the machine's speed (on a router the wait is the default 500 ms, paid by every batch after a pause).
     */
    private static final int PARKED_FETCH_MS = 60_000;

    private static final Duration CATCH_UP_TIMEOUT = Duration.ofSeconds(10);

    @TempDir
    static Path kafkaDir;

    private static EmbeddedKafka kafka;
    private static Admin admin;
    private static KafkaProducer<byte[], byte[]> producer;

    private KafkaConsumer<byte[], byte[]> consumer;
    private SubscriptionIndex index;
    private SubscriptionFeedReader feed;

    @BeforeAll
    static void startKafka() throws Exception {
        kafka = EmbeddedKafka.start(kafkaDir);
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
        LAYOUT.ensureSharedTopics(admin);
        producer = TestKafka.producer(kafka.bootstrapServers());
    }

    @AfterAll
    static void stopKafka() {
        if (producer != null) {
            producer.close();
        }
        if (admin != null) {
            admin.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @BeforeEach
    void idleFeedReader() throws Exception {
        consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(),
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG,
                PARKED_FETCH_MS,
                ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                PARKED_FETCH_MS + 30_000,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class));
        index = new SubscriptionIndex();
        feed = new SubscriptionFeedReader(
                consumer, new FeedEndOffsets(admin), index, new RoutingMetrics(new SimpleMeterRegistry(), index));
        feed.assignWildcardPartitions(CATCH_UP_TIMEOUT);
        feed.addExactPartitions(List.of(0, 1));
        feed.catchUp(CATCH_UP_TIMEOUT);
        // As the idle routing loop does between empty polls: each poll leaves a fetch parked at the broker.
        for (int i = 0; i < 5; i++) {
            feed.applyAvailable();
            Thread.sleep(20);
        }
    }

    @AfterEach
    void closeConsumer() {
        consumer.close(CloseOptions.timeout(Duration.ZERO));
    }

    @Test
    void catch_up_of_an_idle_feed_does_not_wait_behind_the_parked_fetch() {
        // Before the end offsets came from the Admin client, they were asked on the consumer's own connection, and
        // the broker answered them only after the parked fetch: this threw a TimeoutException after 10 s.
        assertThatCode(() -> feed.catchUp(CATCH_UP_TIMEOUT)).doesNotThrowAnyException();
    }

    @Test
    void subscriptions_acknowledged_before_the_catch_up_are_in_the_index_after_it() throws Exception {
        List<SubscriptionRecord> acknowledged = new ArrayList<>();
        for (int n = 0; n < 20; n++) {
            String filter = n % 2 == 0 ? "meters/" + n + "/power" : "meters/" + n + "/#";
            SubscriptionRecord subscription =
                    new SubscriptionRecord("client-" + n, filter, "node-a", 1, false, false, 0, 1, false);
            producer.send(SubscriptionRecords.upsert(subscription, PUBLISH_PARTITIONS))
                    .get();
            acknowledged.add(subscription);
        }

        feed.catchUp(CATCH_UP_TIMEOUT);

        List<SubscriptionRecord> indexed = new ArrayList<>();
        for (SubscriptionRecord subscription : acknowledged) {
            String topic = subscription.filter().replace("#", "x");
            index.forEachMatch(Partitioning.partitionFor(topic, PUBLISH_PARTITIONS), topic, match -> {
                if (match.clientId().equals(subscription.clientId())) {
                    indexed.add(match);
                }
            });
        }
        assertThat(indexed).containsExactlyInAnyOrderElementsOf(acknowledged);
    }
}
