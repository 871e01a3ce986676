package io.tributary.session.connect;

import io.tributary.common.session.DisconnectApi;
import io.tributary.common.subscription.SubscriptionRecords;
import io.tributary.session.config.SessionServiceProperties;
import io.tributary.session.expiry.ExpiryPolicy;
import io.tributary.session.kafka.FeedTopics;
import io.tributary.session.kafka.RecordSender;
import io.tributary.session.metrics.SessionMetrics;
import io.tributary.session.presence.PresenceStore;
import io.tributary.session.store.AfterCommit;
import io.tributary.session.store.SessionRecord;
import io.tributary.session.store.SessionStore;
import io.tributary.session.store.StoredSubscription;
import io.tributary.session.store.SubscriptionStore;
import io.tributary.session.will.WillStore;
import io.tributary.session.will.WillTiming;
import io.tributary.sessionqueue.QueueAdmin;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

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
    private final QueueAdmin queues;
    private final SessionMetrics metrics;
    private final SessionServiceProperties.Expiry expiry;
    private final Clock clock;

    public DisconnectService(
            SessionStore sessions,
            SubscriptionStore subscriptions,
            WillStore wills,
            FeedTopics topics,
            RecordSender sender,
            PresenceStore presence,
            QueueAdmin queues,
            SessionMetrics metrics,
            Clock clock,
            SessionServiceProperties properties) {
        this.queues = queues;
        this.sessions = sessions;
        this.subscriptions = subscriptions;
        this.wills = wills;
        this.topics = topics;
        this.sender = sender;
        this.presence = presence;
        this.metrics = metrics;
        this.clock = clock;
        this.expiry = properties.expiry();
    }

    /** @return true when the session changed; false when the request was stale or repeated */
    @Transactional
    public boolean disconnect(DisconnectApi.DisconnectRequest request) {
        return disconnectAll(List.of(request)) == 1;
    }

    /**
     * Many ended connections (of distinct or repeated clients) in one transaction: the rows are locked in client id
     * order, stale and repeated requests change nothing, the feed records of all are awaited once.
     *
     * @return how many sessions changed
     */
    @Transactional
    public int disconnectAll(List<DisconnectApi.DisconnectRequest> requests) {
        Map<String, SessionRecord> rows = sessions.lockAll(new TreeSet<>(
                requests.stream().map(DisconnectApi.DisconnectRequest::clientId).toList()));
        List<Ending> endings = new ArrayList<>();
        for (DisconnectApi.DisconnectRequest request : requests) {
            // remove: a second request for the same epoch in this batch finds the session ended, as after commit.
            SessionRecord row = rows.remove(request.clientId());
            if (row == null || row.epoch() != request.epoch() || !row.connected()) {
                continue;
            }
            // An older transport does not say; it published wills itself.
            DisconnectApi.WillOutcome will =
                    request.will() == null ? DisconnectApi.WillOutcome.PUBLISHED : request.will();
            // A DISCONNECT may change the expiry (MQTT 5 3.14.2.2.2), never beyond the maximum.
            endings.add(new Ending(row, expiry.grantedSeconds(request.sessionExpirySeconds()), will));
        }
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        endAll(endings, clock.instant(), records);
        sender.sendAndAwait(records);
        ended(endings.stream().map(Ending::session).toList());
        return endings.size();
    }

    /**
     * The end of one connection: the session, whose row the caller locked and found connected; the expiry in force at
     * the end (0 removes the session and its subscriptions); what becomes of its will.
     */
    public record Ending(SessionRecord session, long sessionExpirySeconds, DisconnectApi.WillOutcome will) {}

    /**
     * Ends these connections (distinct clients): changes the stores, a statement or pipeline for all of them, and
     * appends the feed records to {@code records}, which the caller must have acknowledged by Kafka before it commits,
     * then call {@link #ended}.
     */
    public void endAll(List<Ending> endings, Instant now, List<ProducerRecord<byte[], byte[]>> records) {
        if (endings.isEmpty()) {
            return;
        }
        int partitions = topics.publishPartitions();
        Map<String, Long> epochs = new HashMap<>();
        List<String> removed = new ArrayList<>();
        List<Ending> offline = new ArrayList<>();
        for (Ending e : endings) {
            epochs.put(e.session().clientId(), e.session().epoch());
            if (e.sessionExpirySeconds() == 0) {
                removed.add(e.session().clientId());
            } else {
                offline.add(e);
            }
        }
        for (SubscriptionStore.Removed r : subscriptions.deleteAllOf(removed)) {
            records.add(SubscriptionRecords.removal(r.filter(), r.clientId(), epochs.get(r.clientId()), partitions));
        }
        if (!removed.isEmpty()) {
            sessions.deleteAll(removed);
            queues.deleteAll(removed);
        }
        Map<String, List<StoredSubscription>> kept = subscriptions.listAllOf(
                offline.stream().map(e -> e.session().clientId()).toList());
        kept.forEach((clientId, list) -> list.forEach(s ->
                records.add(SubscriptionRecords.upsert(s.toRecord(null, epochs.get(clientId), true), partitions))));
        sessions.markAllDisconnected(offline.stream()
                .map(e -> new SessionStore.Disconnected(
                        e.session().clientId(),
                        e.sessionExpirySeconds(),
                        now,
                        ExpiryPolicy.expiresAt(now, e.sessionExpirySeconds())))
                .toList());
        List<String> discardWills = new ArrayList<>();
        for (Ending e : endings) {
            String clientId = e.session().clientId();
            if (e.will() != DisconnectApi.WillOutcome.SCHEDULE) {
                // Under the row lock the client's will row, if any, is the one of this epoch (CONNECT replaced it).
                discardWills.add(clientId);
                continue;
            }
            Optional<Long> delay = wills.delayOf(clientId, e.session().epoch());
            if (delay.isPresent()) {
                wills.schedule(
                        clientId,
                        e.session().epoch(),
                        WillTiming.publishAt(now, delay.get(), e.sessionExpirySeconds()));
            }
        }
        wills.deleteAll(discardWills);
    }

    /**
     * Ends the connection of {@code session}, whose row the caller has locked in its transaction and found connected
     * ({@link #endAll} for one).
     */
    public void end(
            SessionRecord session,
            long sessionExpirySeconds,
            DisconnectApi.WillOutcome will,
            Instant now,
            List<ProducerRecord<byte[], byte[]>> records) {
        endAll(List.of(new Ending(session, sessionExpirySeconds, will)), now, records);
    }

    /** After the records of {@link #endAll} were acknowledged: presence and the connected gauge follow. */
    public void ended(List<SessionRecord> sessionsEnded) {
        // Once committed: a rolled-back end would otherwise leave a connected client without presence.
        Map<String, Long> epochs = sessionsEnded.stream()
                .collect(java.util.stream.Collectors.toMap(SessionRecord::clientId, SessionRecord::epoch, (a, b) -> b));
        AfterCommit.run(() -> presence.removeAllIfEpoch(epochs));
        sessionsEnded.forEach(s -> AfterCommit.run(metrics::disconnected));
    }
}
