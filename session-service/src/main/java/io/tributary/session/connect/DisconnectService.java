package io.tributary.session.connect;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import io.tributary.common.session.SessionApi;
import io.tributary.common.subscription.SubscriptionRecords;
import io.tributary.session.expiry.ExpiryPolicy;
import io.tributary.session.kafka.FeedTopics;
import io.tributary.session.kafka.RecordSender;
import io.tributary.session.metrics.SessionMetrics;
import io.tributary.session.presence.PresenceStore;
import io.tributary.session.queue.SessionQueues;
import io.tributary.session.store.AfterCommit;
import io.tributary.session.store.SessionRecord;
import io.tributary.session.store.SessionStore;
import io.tributary.session.store.StoredSubscription;
import io.tributary.session.store.SubscriptionStore;

/**
 * The connection of a given epoch ended. A stale epoch (the client connected again since) changes nothing. With
 * expiry 0 the session ends now; otherwise it goes offline: its subscriptions stay, marked offline in the feed, until
 * it expires or the client returns.
 */
@Service
public class DisconnectService {

    private final SessionStore sessions;
    private final SubscriptionStore subscriptions;
    private final FeedTopics topics;
    private final RecordSender sender;
    private final PresenceStore presence;
    private final SessionQueues queues;
    private final SessionMetrics metrics;
    private final Clock clock;

    public DisconnectService(SessionStore sessions, SubscriptionStore subscriptions, FeedTopics topics,
            RecordSender sender, PresenceStore presence, SessionQueues queues, SessionMetrics metrics, Clock clock) {
        this.queues = queues;
        this.sessions = sessions;
        this.subscriptions = subscriptions;
        this.topics = topics;
        this.sender = sender;
        this.presence = presence;
        this.metrics = metrics;
        this.clock = clock;
    }

    /** @return true when the session changed; false when the request was stale or repeated */
    @Transactional
    public boolean disconnect(SessionApi.DisconnectRequest request) {
        String clientId = request.clientId();
        Optional<SessionRecord> locked = sessions.lock(clientId);
        if (locked.isEmpty() || locked.get().epoch() != request.epoch() || !locked.get().connected()) {
            return false;
        }
        long epoch = request.epoch();
        int partitions = topics.publishPartitions();
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        if (request.sessionExpirySeconds() == 0) {
            for (String filter : subscriptions.deleteAll(clientId)) {
                records.add(SubscriptionRecords.removal(filter, clientId, epoch, partitions));
            }
            sender.sendAndAwait(records);
            sessions.delete(clientId);
            queues.delete(clientId);
        } else {
            for (StoredSubscription s : subscriptions.list(clientId)) {
                records.add(SubscriptionRecords.upsert(s.toRecord(null, epoch, true), partitions));
            }
            sender.sendAndAwait(records);
            Instant now = clock.instant();
            sessions.markDisconnected(clientId, request.sessionExpirySeconds(), now,
                    ExpiryPolicy.expiresAt(now, request.sessionExpirySeconds()));
        }
        presence.removeIfEpoch(clientId, epoch);
        AfterCommit.run(metrics::disconnected);
        return true;
    }
}
