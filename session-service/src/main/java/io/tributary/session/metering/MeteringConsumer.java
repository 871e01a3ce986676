package io.tributary.session.metering;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.common.kafka.CommitPacer;
import io.tributary.common.kafka.KafkaClients;
import io.tributary.common.kafka.PollLoop;
import io.tributary.common.kafka.TopicNames;
import io.tributary.common.metering.MeteringRecords;
import io.tributary.common.metering.UsageDelta;
import io.tributary.common.metering.UsageTotals;
import io.tributary.common.retry.Backoff;
import io.tributary.session.config.SessionServiceProperties;
import io.tributary.session.kafka.FeedTopics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Adds the transport nodes' usage deltas ({@link TopicNames#METERING_DELTAS}) into {@code tenant_usage}, in its own
 * consumer group, exactly once: each poll's deltas go in one PostgreSQL transaction together with the number of the
 * last delta added per node incarnation and tenant ({@link UsageStore#apply}), so a delta delivered again — a batch
 * read again after a failure or a rebalance, before its offsets were committed — is skipped. Offsets are committed
 * after the transaction (paced). After each commit the touched tenant-hours' totals go to {@link TopicNames#METERING}.
 */
@Component
public class MeteringConsumer extends PollLoop implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(MeteringConsumer.class);
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(500);
    private static final Duration COMMIT_INTERVAL = Duration.ofSeconds(1);

    private final SessionServiceProperties properties;
    private final MeteringProperties metering;
    private final UsageStore store;
    private final TotalsPublisher publisher;
    private final TransactionTemplate transactions;
    private final KafkaClients kafkaClients;
    private final CommitPacer commits = new CommitPacer(COMMIT_INTERVAL);
    private volatile Consumer<byte[], byte[]> consumer;
    private final Counter added;
    private final Counter duplicates;

    public MeteringConsumer(
            SessionServiceProperties properties,
            MeteringProperties metering,
            UsageStore store,
            TotalsPublisher publisher,
            TransactionTemplate transactions,
            FeedTopics topics,
            KafkaClients kafkaClients,
            MeterRegistry registry) {
        super(
                "metering-consumer",
                false,
                new Backoff(Duration.ofMillis(100), Duration.ofSeconds(5)),
                Duration.ofSeconds(10));
        // FeedTopics is taken so that the metering topics exist (it creates them) before this consumer subscribes.
        this.properties = properties;
        this.metering = metering;
        this.store = store;
        this.publisher = publisher;
        this.transactions = transactions;
        this.kafkaClients = kafkaClients;
        this.added = Counter.builder("tributary.metering.deltas")
                .description("Usage deltas of the transport nodes read by this instance: added, or skipped as"
                        + " added before (delivered again)")
                .tag("outcome", "added")
                .register(registry);
        this.duplicates = Counter.builder("tributary.metering.deltas")
                .description("Usage deltas of the transport nodes read by this instance: added, or skipped as"
                        + " added before (delivered again)")
                .tag("outcome", "duplicate")
                .register(registry);
    }

    @Override
    public void start() {
        Properties config = new Properties();
        config.putAll(properties.kafka().group().consumerConfig(metering.consumerGroup()));
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, properties.kafka().group().clientId("session-service", "metering"));
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        // A new group adds up every delta still in the topic (a week), not only later ones.
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumer = kafkaClients.consumer(config);
        consumer.subscribe(List.of(TopicNames.METERING_DELTAS), new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                commitNow();
            }

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {}
        });
        startLoop(consumer);
        log.info("Metering consumer started (group {})", metering.consumerGroup());
    }

    @Override
    protected void pollOnce() {
        ConsumerRecords<byte[], byte[]> records = consumer.poll(commits.pending() ? COMMIT_INTERVAL : POLL_TIMEOUT);
        try {
            if (!records.isEmpty()) {
                publisher.publish(apply(records));
                commits.handled();
            }
            commits.commitIfDue(consumer, this::positions);
        } catch (WakeupException e) {
            throw e;
        } catch (RuntimeException e) {
            // Read the batch again after the back-off: what of it is in PostgreSQL already is skipped then.
            rewind(records);
            throw e;
        }
    }

    /** Adds a batch's deltas in one transaction; returns the totals of the tenant-hours it changed, as committed. */
    public List<UsageTotals> apply(Iterable<ConsumerRecord<byte[], byte[]>> records) {
        return transactions.execute(status -> {
            Set<Map.Entry<String, Instant>> touched = new LinkedHashSet<>();
            for (ConsumerRecord<byte[], byte[]> record : records) {
                UsageDelta delta;
                try {
                    delta = MeteringRecords.decodeDelta(record.value());
                } catch (IllegalArgumentException e) {
                    log.warn(
                            "Skipping record {}-{}@{}: {}",
                            record.topic(),
                            record.partition(),
                            record.offset(),
                            e.getMessage());
                    continue;
                }
                if (store.apply(delta)) {
                    added.increment();
                    touched.add(Map.entry(delta.tenant(), delta.hour()));
                } else {
                    duplicates.increment();
                }
            }
            List<UsageTotals> totals = new ArrayList<>();
            for (Map.Entry<String, Instant> key : touched) {
                store.totals(key.getKey(), key.getValue()).ifPresent(totals::add);
            }
            return totals;
        });
    }

    @Override
    protected void onLoopEnd() {
        commitNow();
        consumer.close(Duration.ofSeconds(5));
    }

    private void commitNow() {
        if (!commits.pending()) {
            return;
        }
        try {
            consumer.commitSync(positions(), Duration.ofSeconds(5));
            commits.committed();
        } catch (WakeupException e) {
            // the next owner reads from the last commit; the deltas it reads again are skipped
        } catch (RuntimeException e) {
            log.warn("Committing the metering consumer's offsets failed: {}", e.toString());
        }
    }

    private Map<TopicPartition, OffsetAndMetadata> positions() {
        Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>();
        for (TopicPartition p : consumer.assignment()) {
            out.put(p, new OffsetAndMetadata(consumer.position(p)));
        }
        return out;
    }

    private void rewind(ConsumerRecords<byte[], byte[]> records) {
        try {
            for (TopicPartition p : records.partitions()) {
                List<ConsumerRecord<byte[], byte[]>> of = records.records(p);
                if (!of.isEmpty() && consumer.assignment().contains(p)) {
                    consumer.seek(p, of.get(0).offset());
                }
            }
        } catch (RuntimeException e) {
            log.warn("Cannot rewind the metering consumer: {}", e.toString());
        }
    }
}
