package io.tributary.session.will;

import io.tributary.session.config.SessionServiceProperties;
import io.tributary.session.kafka.RecordSender;
import io.tributary.session.metrics.SessionMetrics;
import io.tributary.session.store.AfterCommit;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Publishes the wills that are due — delayed wills whose delay passed, wills of clients whose node was declared
 * dead — to {@code tributary.publish}, a small batch per transaction, found through the partial index on
 * {@code will_publish_at} (never a scan of all wills). A batch's rows are locked with SKIP LOCKED, the records are
 * produced and acknowledged by Kafka, then the rows are deleted and the transaction commits: each will is published
 * by one instance, once. Only a crash between Kafka's acknowledgement and the commit can publish a will twice (it
 * is still there on the next run); a Kafka failure rolls back and the wills are retried on the next run. Runs state
 * nothing in memory, so wills survive restarts of session-service.
 */
@Component
public class WillPublisher implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(WillPublisher.class);

    private final WillStore wills;
    private final RecordSender sender;
    private final TransactionTemplate transactions;
    private final SessionMetrics metrics;
    private final Clock clock;
    private final SessionServiceProperties.Wills settings;

    public WillPublisher(
            WillStore wills,
            RecordSender sender,
            TransactionTemplate transactions,
            SessionMetrics metrics,
            Clock clock,
            SessionServiceProperties properties) {
        this.wills = wills;
        this.sender = sender;
        this.transactions = transactions;
        this.metrics = metrics;
        this.clock = clock;
        this.settings = properties.wills();
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        registrar.addFixedDelayTask(this::run, settings.publishInterval());
    }

    void run() {
        try {
            publishDue();
        } catch (RuntimeException e) {
            log.warn("Publishing due wills failed, retrying on the next run: {}", e.toString());
        }
    }

    /** Publishes every will due now, at most {@code maxBatchesPerRun} batches. @return wills published */
    public int publishDue() {
        int total = 0;
        for (int batch = 0; batch < settings.maxBatchesPerRun(); batch++) {
            Integer published = transactions.execute(status -> publishBatch());
            int n = published == null ? 0 : published;
            total += n;
            if (n < settings.batchSize()) {
                break;
            }
        }
        if (total > 0) {
            log.debug("Published {} due will(s)", total);
        }
        return total;
    }

    private int publishBatch() {
        Instant now = clock.instant();
        List<StoredWill> due = wills.lockDue(now, settings.batchSize());
        if (due.isEmpty()) {
            return 0;
        }
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(due.size());
        List<String> clientIds = new ArrayList<>(due.size());
        for (StoredWill will : due) {
            records.add(will.toRecord(now.toEpochMilli()));
            clientIds.add(will.clientId());
        }
        sender.sendAndAwait(records);
        wills.deleteAll(clientIds);
        int n = due.size();
        AfterCommit.run(() -> metrics.willsPublished(n));
        return n;
    }
}
