package io.tributary.session.connect;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import io.tributary.common.acl.TopicPermissions;
import io.tributary.common.session.SessionApi;
import io.tributary.common.session.SessionQueueing;
import io.tributary.common.subscription.SubscriptionRecords;
import io.tributary.session.auth.Authentication;
import io.tributary.session.blocklist.BlockListService;
import io.tributary.session.auth.CredentialStore;
import io.tributary.session.kafka.FeedTopics;
import io.tributary.session.kafka.RecordSender;
import io.tributary.session.metrics.SessionMetrics;
import io.tributary.session.presence.Presence;
import io.tributary.session.presence.PresenceStore;
import io.tributary.session.queue.SessionQueues;
import io.tributary.session.store.AfterCommit;
import io.tributary.session.store.SessionRecord;
import io.tributary.session.store.SessionStore;
import io.tributary.session.store.StoredSubscription;
import io.tributary.session.store.SubscriptionStore;
import io.tributary.session.takeover.DownlinkCommands;
import io.tributary.session.web.ApiException;
import io.tributary.session.will.StoredWill;
import io.tributary.session.will.WillStore;
import io.tributary.session.will.WillTiming;

/**
 * A client passed CONNECT on a transport node. Under the session's row lock: draw a new epoch from the global
 * sequence, discard or resume the stored session (re-pointing its subscriptions in the feed to the new node), tell
 * the previous node to close its connection, wait for Kafka to acknowledge all of it, then record the new owner.
 */
@Service
public class ConnectService {

    private static final Logger log = LoggerFactory.getLogger(ConnectService.class);
    private static final int LOCK_ATTEMPTS = 3;

    private final SessionStore sessions;
    private final SubscriptionStore subscriptions;
    private final WillStore wills;
    private final FeedTopics topics;
    private final RecordSender sender;
    private final PresenceStore presence;
    private final SessionQueues queues;
    private final SessionMetrics metrics;
    private final Clock clock;
    private final CredentialStore credentials;
    private final BlockListService blockList;

    public ConnectService(SessionStore sessions, SubscriptionStore subscriptions, WillStore wills,
            FeedTopics topics, RecordSender sender, PresenceStore presence, SessionQueues queues,
            SessionMetrics metrics, Clock clock, CredentialStore credentials, BlockListService blockList) {
        this.blockList = blockList;
        this.credentials = credentials;
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

    /**
     * @param auth the outcome of {@link io.tributary.session.auth.ConnectAuthenticator}, decided before this
     *             transaction; its credential is share-locked here and must still be at the version that was checked
     */
    @Transactional
    public SessionApi.ConnectResponse connect(SessionApi.ConnectRequest request, Authentication auth) {
        String clientId = request.clientId();
        Instant now = clock.instant();
        // Again under the block list's shared lock: an entry added since the first check is seen here, and one added
        // later waits for this transaction and then finds the connection.
        blockList.checkLocked(request);
        if (auth.credentialId() != null) {
            // Held until commit: a credential change waits for this CONNECT and then finds its connection to close;
            // a change that committed first is seen here and the client is asked to come back (server unavailable).
            Optional<Long> version = credentials.lockVersionForConnect(auth.credentialId());
            if (version.isEmpty() || version.get() != auth.version()) {
                throw new ApiException(org.springframework.http.HttpStatus.SERVICE_UNAVAILABLE,
                        "credential " + auth.credentialId() + " changed during CONNECT; connect again");
            }
        }
        Locked locked = lockOrCreate(clientId);
        SessionRecord row = locked.row();
        // Drawn only once the row is locked: the previous holder of the lock drew its epoch before, so the epochs of
        // one client increase in commit order, and stay above those of any deleted earlier session of the client.
        ConnectPlan plan = ConnectPlan.of(row, locked.created(), request.cleanStart(), now, sessions.nextEpoch());
        long epoch = plan.newEpoch();
        int partitions = topics.publishPartitions();

        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        List<SessionApi.Subscription> resumed = new ArrayList<>();
        // A resumed session keeps its queue for this connection even when the CONNECT asks for expiry 0.
        boolean queueBacked = SessionQueueing.queueBacked(request.sessionExpirySeconds(), plan.sessionPresent());
        if (plan.discardSession()) {
            for (String filter : subscriptions.deleteAll(clientId)) {
                records.add(SubscriptionRecords.removal(filter, clientId, epoch, partitions));
            }
            if (!locked.created()) {
                // The old session's queue goes with it (a new client has none: queues die with their sessions).
                queues.delete(clientId);
            }
        } else {
            TopicPermissions permissions = TopicPermissions.of(auth.acl());
            for (StoredSubscription s : subscriptions.list(clientId)) {
                if (!permissions.maySubscribe(s.filter())) {
                    // Made under an ACL that has since changed: the resumed session must not keep receiving what
                    // the client may no longer subscribe to.
                    subscriptions.delete(clientId, s.filter());
                    records.add(SubscriptionRecords.removal(s.filter(), clientId, epoch, partitions));
                    log.info("Client {}: subscription '{}' of the resumed session removed, its ACL no longer allows it",
                            clientId, s.filter());
                    continue;
                }
                records.add(SubscriptionRecords.upsert(s.toRecord(request.nodeId(), epoch, queueBacked), partitions));
                resumed.add(s.toApi());
            }
        }
        // The client is back: a will its previous connection left pending is cancelled (MQTT 5 3.1.3.2.2), unless
        // its session ends now (clean start, or expired) — the will goes out when the delay passes "or the Session
        // ends, whichever happens first" — or it is due already and only waits for the publisher's next run; then
        // it is published now, with this CONNECT's records.
        Optional<StoredWill> pendingWill = wills.replace(clientId, epoch, request.nodeId(), request.protocolVersion(),
                request.will());
        boolean publishPending = pendingWill.isPresent()
                && (plan.discardSession() || WillTiming.dueAt(pendingWill.get().publishAt(), now));
        if (publishPending) {
            records.add(pendingWill.get().toRecord(now.toEpochMilli()));
        }
        if (plan.takeover()) {
            topics.ensureDownlink(plan.takeoverNode());
            records.add(DownlinkCommands.takeover(plan.takeoverNode(), clientId, epoch));
        }
        if (queueBacked) {
            // Before the subscriptions say "persistent" in the feed: routing appends only to an existing queue.
            queues.ensure(clientId, now);
        }
        sender.sendAndAwait(records);

        sessions.markConnected(clientId, new SessionStore.Connection(request.nodeId(), epoch, request.cleanStart(),
                request.sessionExpirySeconds(), request.protocolVersion(), request.keepAliveSeconds(),
                request.remoteAddress(), request.username(), now, request.nodeIncarnation()));
        credentials.linkSession(clientId, auth.credentialId());
        // Written under the row lock, so presence writes of one client land in epoch order.
        presence.set(clientId, new Presence(request.nodeId(), epoch, now));
        boolean wasConnected = row.connected();
        AfterCommit.run(() -> metrics.connected(wasConnected, plan.takeover()));
        if (pendingWill.isPresent()) {
            AfterCommit.run(publishPending ? () -> metrics.willsPublished(1) : metrics::willCancelled);
        }
        if (plan.takeover()) {
            log.debug("Client {} taken over from node {} by node {} at epoch {}", clientId, plan.takeoverNode(),
                    request.nodeId(), epoch);
        }
        return new SessionApi.ConnectResponse(epoch, plan.sessionPresent(), resumed, auth.acl(),
                auth.expiresAt() == null ? null : auth.expiresAt().toEpochMilli());
    }

    private record Locked(SessionRecord row, boolean created) {
    }

    /**
     * Inserts the row if missing, then locks it. The row can vanish between the two (an expiry sweep or a
     * disconnect with expiry 0 committed in between), hence the retry.
     */
    private Locked lockOrCreate(String clientId) {
        for (int attempt = 0; attempt < LOCK_ATTEMPTS; attempt++) {
            boolean created = sessions.insertIfAbsent(clientId);
            var row = sessions.lock(clientId);
            if (row.isPresent()) {
                return new Locked(row.get(), created);
            }
        }
        throw new IllegalStateException("session row of " + clientId + " keeps disappearing");
    }
}
