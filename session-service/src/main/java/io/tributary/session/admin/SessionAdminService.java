package io.tributary.session.admin;

import io.tributary.common.subscription.SubscriptionRecords;
import io.tributary.session.kafka.FeedTopics;
import io.tributary.session.kafka.RecordSender;
import io.tributary.session.presence.Presence;
import io.tributary.session.presence.PresenceStore;
import io.tributary.session.store.SessionRecord;
import io.tributary.session.store.SessionStore;
import io.tributary.session.store.SubscriptionStore;
import io.tributary.session.takeover.DownlinkCommands;
import io.tributary.session.web.ApiException;
import io.tributary.sessionqueue.QueueAdmin;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Operator views and actions on sessions. */
@Service
public class SessionAdminService {

    public static final int MAX_PAGE_SIZE = 1000;

    private final SessionStore sessions;
    private final SubscriptionStore subscriptions;
    private final FeedTopics topics;
    private final RecordSender sender;
    private final PresenceStore presence;
    private final QueueAdmin queues;

    public SessionAdminService(
            SessionStore sessions,
            SubscriptionStore subscriptions,
            FeedTopics topics,
            RecordSender sender,
            PresenceStore presence,
            QueueAdmin queues) {
        this.queues = queues;
        this.sessions = sessions;
        this.subscriptions = subscriptions;
        this.topics = topics;
        this.sender = sender;
        this.presence = presence;
    }

    @Transactional(readOnly = true)
    public SessionPage list(int page, int size, Boolean connected) {
        if (page < 0) {
            throw ApiException.badRequest("page must not be negative: " + page);
        }
        if (size < 1 || size > MAX_PAGE_SIZE) {
            throw ApiException.badRequest("size must be 1.." + MAX_PAGE_SIZE + ": " + size);
        }
        List<SessionView> items = sessions.page(connected, (long) page * size, size).stream()
                .map(SessionView::of)
                .toList();
        return new SessionPage(items, page, size, sessions.count(connected));
    }

    public SessionDetails get(String clientId) {
        SessionView session = SessionView.of(require(clientId));
        try {
            Presence p = presence.get(clientId).orElse(null);
            return new SessionDetails(session, p, null, SessionQueueStats.of(queues.stats(clientId)));
        } catch (RuntimeException e) {
            return new SessionDetails(session, null, "Redis unavailable: " + e.getMessage(), null);
        }
    }

    @Transactional(readOnly = true)
    public List<SubscriptionView> subscriptions(String clientId) {
        require(clientId);
        return subscriptions.list(clientId).stream().map(SubscriptionView::of).toList();
    }

    /**
     * Asks the node holding the client's connection to close it (MQTT 5 reason 0x98). The session row is not
     * changed here: the node reports the end of the connection through the internal disconnect call.
     */
    public DisconnectAccepted disconnect(String clientId) {
        SessionRecord session = require(clientId);
        if (!session.connected() || session.nodeId() == null) {
            throw ApiException.conflict("client " + clientId + " is not connected");
        }
        topics.ensureDownlink(session.nodeId());
        sender.sendAndAwait(List.of(DownlinkCommands.disconnect(
                session.nodeId(), clientId, session.epoch(), DownlinkCommands.ADMINISTRATIVE_ACTION)));
        return new DisconnectAccepted(
                clientId, session.nodeId(), session.epoch(), DownlinkCommands.ADMINISTRATIVE_ACTION);
    }

    /** Removes an offline persistent session and its subscriptions (with their tombstones in the feed). */
    @Transactional
    public void delete(String clientId) {
        SessionRecord session =
                sessions.lock(clientId).orElseThrow(() -> ApiException.notFound("no session for client " + clientId));
        if (session.connected()) {
            throw ApiException.conflict("client " + clientId + " is connected; disconnect it first");
        }
        int partitions = topics.publishPartitions();
        List<ProducerRecord<byte[], byte[]>> tombstones = new ArrayList<>();
        for (String filter : subscriptions.deleteAll(clientId)) {
            tombstones.add(SubscriptionRecords.removal(filter, clientId, session.epoch(), partitions));
        }
        sender.sendAndAwait(tombstones);
        sessions.delete(clientId);
        queues.delete(clientId);
        presence.removeIfEpoch(clientId, session.epoch());
    }

    private SessionRecord require(String clientId) {
        return sessions.find(clientId).orElseThrow(() -> ApiException.notFound("no session for client " + clientId));
    }
}
