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
import io.tributary.session.will.WillStore;
import io.tributary.session.will.WillTiming;

/**
 * The connection of a given epoch ended. A stale epoch (the client connected again since) changes nothing. With
 * expiry 0 the session ends now; otherwise it goes offline: its subscriptions stay, marked offline in the feed, until
 * it expires or the client returns. The connection's stored will is deleted, or scheduled for publishing when the
 * connection ended abnormally and the node left it to session-service.
 *
 * <p>Node liveness ends the sessions of a dead node through {@link #end} and {@link #ended}, the same steps a
 * disconnect request takes, so a session ends the same way whether its node reported it or died.
 */
@Service
public class DisconnectService {

    private final SessionStore sessions;
    private final SubscriptionStore subscriptions;
    private final WillStore wills;
    private final FeedTopics topics;
    private final RecordSender sender;
    private final PresenceStore presence;
    private final SessionQueues queues;
    private final SessionMetrics metrics;
    private final Clock clock;

    public DisconnectService(SessionStore sessions, SubscriptionStore subscriptions, WillStore wills,
            FeedTopics topics, RecordSender sender, PresenceStore presence, SessionQueues queues,
            SessionMetrics metrics, Clock clock) {
        this.queues = queues;
        this.sessions = sessions;
        this.subscriptions = subscriptions;
        this.wills = wills;
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
        // An older transport does not say; it published wills itself.
        SessionApi.WillOutcome will = request.will() == null ? SessionApi.WillOutcome.PUBLISHED : request.will();
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        end(locked.get(), request.sessionExpirySeconds(), will, clock.instant(), records);
        sender.sendAndAwait(records);
        ended(locked.get());
        return true;
    }

    /**
     * Ends the connection of {@code session}, whose row the caller has locked in its transaction and found connected:
     * changes the stores and appends the feed records to {@code records}, which the caller must have acknowledged by
     * Kafka before it commits, then call {@link #ended}.
     *
     * @param sessionExpirySeconds the expiry in force at the end; 0 removes the session and its subscriptions
     * @param will                 what becomes of the connection's will
     */
    public void end(SessionRecord session, long sessionExpirySeconds, SessionApi.WillOutcome will, Instant now,
            List<ProducerRecord<byte[], byte[]>> records) {
        String clientId = session.clientId();
        long epoch = session.epoch();
        int partitions = topics.publishPartitions();
        if (sessionExpirySeconds == 0) {
            for (String filter : subscriptions.deleteAll(clientId)) {
                records.add(SubscriptionRecords.removal(filter, clientId, epoch, partitions));
            }
            sessions.delete(clientId);
            queues.delete(clientId);
        } else {
            for (StoredSubscription s : subscriptions.list(clientId)) {
                records.add(SubscriptionRecords.upsert(s.toRecord(null, epoch, true), partitions));
            }
            sessions.markDisconnected(clientId, sessionExpirySeconds, now,
                    ExpiryPolicy.expiresAt(now, sessionExpirySeconds));
        }
        if (will == SessionApi.WillOutcome.SCHEDULE) {
            Optional<Long> delay = wills.delayOf(clientId, epoch);
            if (delay.isPresent()) {
                wills.schedule(clientId, epoch, WillTiming.publishAt(now, delay.get(), sessionExpirySeconds));
            }
        } else {
            wills.delete(clientId, epoch);
        }
    }

    /** After the records of {@link #end} were acknowledged: presence and the connected gauge follow. */
    public void ended(SessionRecord session) {
        presence.removeIfEpoch(session.clientId(), session.epoch());
        AfterCommit.run(metrics::disconnected);
    }
}
