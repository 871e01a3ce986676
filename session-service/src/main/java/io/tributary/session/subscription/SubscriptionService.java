package io.tributary.session.subscription;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import io.tributary.common.session.SessionApi;
import io.tributary.common.subscription.SubscriptionRecord;
import io.tributary.common.subscription.SubscriptionRecords;
import io.tributary.session.kafka.FeedTopics;
import io.tributary.session.kafka.RecordSender;
import io.tributary.session.store.SessionRecord;
import io.tributary.session.store.SessionStore;
import io.tributary.session.store.SubscriptionStore;
import io.tributary.session.web.ApiException;

/**
 * SUBSCRIBE and UNSUBSCRIBE of a live connection: stored in PostgreSQL and produced to the subscription feed under
 * the session's row lock; the answer (and so SUBACK / UNSUBACK) comes only after Kafka acknowledged the records.
 */
@Service
public class SubscriptionService {

    private final SessionStore sessions;
    private final SubscriptionStore subscriptions;
    private final FeedTopics topics;
    private final RecordSender sender;
    private final Clock clock;

    public SubscriptionService(SessionStore sessions, SubscriptionStore subscriptions, FeedTopics topics,
            RecordSender sender, Clock clock) {
        this.sessions = sessions;
        this.subscriptions = subscriptions;
        this.topics = topics;
        this.sender = sender;
        this.clock = clock;
    }

    /**
     * @param reasonCodes one per requested subscription
     * @param created     one per requested subscription: true when it did not exist before this SUBSCRIBE
     */
    public record Subscribed(List<Integer> reasonCodes, List<Boolean> created) {
    }

    @Transactional
    public Subscribed subscribe(SessionApi.SubscribeRequest request) {
        String clientId = request.clientId();
        SessionRecord session = lockCurrent(clientId, request.epoch());
        if (!request.nodeId().equals(session.nodeId())) {
            throw ApiException.conflict("client " + clientId + " is connected on node " + session.nodeId()
                    + ", not " + request.nodeId());
        }
        Instant now = clock.instant();
        int partitions = topics.publishPartitions();
        List<Integer> reasonCodes = new ArrayList<>(request.subscriptions().size());
        List<Boolean> created = new ArrayList<>(request.subscriptions().size());
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (SessionApi.Subscription s : request.subscriptions()) {
            int rejection = FilterAdmission.rejection(s.filter());
            if (rejection >= 0) {
                reasonCodes.add(rejection);
                created.add(false);
                continue;
            }
            int granted = FilterAdmission.grantedQos(s.qos());
            SessionApi.Subscription stored = new SessionApi.Subscription(s.filter(), granted, s.noLocal(),
                    s.retainAsPublished(), s.retainHandling(), s.subscriptionId());
            created.add(subscriptions.upsert(clientId, stored, now));
            records.add(SubscriptionRecords.upsert(new SubscriptionRecord(clientId, s.filter(), request.nodeId(),
                    granted, s.noLocal(), s.retainAsPublished(), s.retainHandling(), request.epoch(),
                    session.sessionExpirySeconds() > 0), partitions));
            reasonCodes.add(granted);
        }
        sender.sendAndAwait(records);
        return new Subscribed(reasonCodes, created);
    }

    @Transactional
    public SessionApi.UnsubscribeResponse unsubscribe(SessionApi.UnsubscribeRequest request) {
        String clientId = request.clientId();
        lockCurrent(clientId, request.epoch());
        int partitions = topics.publishPartitions();
        List<Integer> reasonCodes = new ArrayList<>(request.filters().size());
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (String filter : request.filters()) {
            if (subscriptions.delete(clientId, filter)) {
                records.add(SubscriptionRecords.removal(filter, clientId, request.epoch(), partitions));
                reasonCodes.add(FilterAdmission.SUCCESS);
            } else {
                reasonCodes.add(FilterAdmission.NO_SUBSCRIPTION_EXISTED);
            }
        }
        sender.sendAndAwait(records);
        return new SessionApi.UnsubscribeResponse(reasonCodes);
    }

    /** Locks the session and checks the caller speaks for its live connection; 409 otherwise. */
    private SessionRecord lockCurrent(String clientId, long epoch) {
        SessionRecord session = sessions.lock(clientId)
                .orElseThrow(() -> ApiException.conflict("client " + clientId + " has no session"));
        if (session.epoch() != epoch || !session.connected()) {
            throw ApiException.conflict("epoch " + epoch + " of client " + clientId + " is not current (current "
                    + session.epoch() + (session.connected() ? "" : ", offline") + ")");
        }
        return session;
    }
}
