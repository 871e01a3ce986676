package io.tributary.session.expiry;

import io.tributary.common.subscription.SubscriptionRecords;
import io.tributary.session.config.SessionServiceProperties;
import io.tributary.session.kafka.FeedTopics;
import io.tributary.session.kafka.RecordSender;
import io.tributary.session.presence.PresenceStore;
import io.tributary.session.store.SessionStore;
import io.tributary.session.store.SubscriptionStore;
import io.tributary.sessionqueue.QueueAdmin;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Removes offline sessions whose expiry has passed, a small batch per transaction, found through the partial index
 * on {@code expires_at} (never a scan of all sessions). Each batch produces the tombstones of the removed
 * subscriptions and commits only after Kafka acknowledged them; a failed batch is retried on the next run. Rows
 * are locked with SKIP LOCKED, so several instances can sweep side by side and a CONNECT in progress wins.
 */
@Component
public class ExpirySweeper implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(ExpirySweeper.class);

    private final SessionStore sessions;
    private final SubscriptionStore subscriptions;
    private final FeedTopics topics;
    private final RecordSender sender;
    private final PresenceStore presence;
    private final QueueAdmin queues;
    private final TransactionTemplate transactions;
    private final Clock clock;
    private final SessionServiceProperties.Expiry settings;

    public ExpirySweeper(
            SessionStore sessions,
            SubscriptionStore subscriptions,
            FeedTopics topics,
            RecordSender sender,
            PresenceStore presence,
            QueueAdmin queues,
            TransactionTemplate transactions,
            Clock clock,
            SessionServiceProperties properties) {
        this.queues = queues;
        this.sessions = sessions;
        this.subscriptions = subscriptions;
        this.topics = topics;
        this.sender = sender;
        this.presence = presence;
        this.transactions = transactions;
        this.clock = clock;
        this.settings = properties.expiry();
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        registrar.addFixedDelayTask(this::run, settings.sweepInterval());
    }

    void run() {
        try {
            int removed = sweep();
            if (removed > 0) {
                log.info("Removed {} expired session(s)", removed);
            }
        } catch (RuntimeException e) {
            log.warn("Session expiry sweep failed, retrying on the next run: {}", e.toString());
        }
    }

    /** Works off expired sessions, at most {@code maxBatchesPerRun} batches. @return sessions removed */
    public int sweep() {
        int total = 0;
        for (int batch = 0; batch < settings.maxBatchesPerRun(); batch++) {
            Integer removed = transactions.execute(status -> sweepBatch());
            int n = removed == null ? 0 : removed;
            total += n;
            if (n < settings.batchSize()) {
                break;
            }
        }
        return total;
    }

    private int sweepBatch() {
        List<SessionStore.ExpiredSession> expired = sessions.lockExpired(clock.instant(), settings.batchSize());
        if (expired.isEmpty()) {
            return 0;
        }
        Map<String, Long> epochs = new HashMap<>();
        for (SessionStore.ExpiredSession s : expired) {
            epochs.put(s.clientId(), s.epoch());
        }
        int partitions = topics.publishPartitions();
        List<ProducerRecord<byte[], byte[]>> tombstones = new ArrayList<>();
        for (SubscriptionStore.Removed r : subscriptions.deleteAllOf(epochs.keySet())) {
            tombstones.add(SubscriptionRecords.removal(r.filter(), r.clientId(), epochs.get(r.clientId()), partitions));
        }
        sender.sendAndAwait(tombstones);
        sessions.deleteAll(epochs.keySet());
        // Inside the transaction: if Redis fails, the rows stay and the next run deletes queues and rows again.
        epochs.keySet().forEach(queues::delete);
        // Offline sessions should have no presence left; clear any a failed Redis write left behind.
        presence.removeAllIfEpoch(epochs);
        return expired.size();
    }
}
