package io.tributary.session.connect;

import io.tributary.common.acl.TopicPermissions;
import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.SubscribeApi;
import io.tributary.common.subscription.SubscriptionRecords;
import io.tributary.common.tenant.TenantNamespace;
import io.tributary.session.auth.Authentication;
import io.tributary.session.kafka.FeedTopics;
import io.tributary.session.metrics.SessionMetrics;
import io.tributary.session.store.AfterCommit;
import io.tributary.session.store.StoredSubscription;
import io.tributary.session.store.SubscriptionStore;
import io.tributary.session.takeover.DownlinkCommands;
import io.tributary.session.will.StoredWill;
import io.tributary.session.will.WillStore;
import io.tributary.session.will.WillTiming;
import io.tributary.sessionqueue.QueueAdmin;
import io.tributary.sessionqueue.SessionQueueing;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * What connecting does to the stored sessions of a batch of distinct clients whose rows are locked: discarded
 * sessions lose their subscriptions and queues, resumed ones get their subscriptions re-pointed to the new node,
 * earlier wills are cancelled or published, live connections elsewhere are told to close. Each step is one statement
 * or one pipeline for the whole batch.
 */
@Component
class SessionResumption {

    private static final Logger log = LoggerFactory.getLogger(SessionResumption.class);

    /**
     * One client of the batch: its request, authentication, plan, whether its row was new or connected, and the will
     * its earlier connection left pending (null: none), taken with the lock ({@code WillStore.takeEarlier}).
     */
    record Connecting(
            ConnectApi.ConnectRequest request,
            Authentication auth,
            ConnectPlan plan,
            boolean created,
            boolean wasConnected,
            StoredWill earlierWill) {}

    private final SubscriptionStore subscriptions;
    private final WillStore wills;
    private final FeedTopics topics;
    private final QueueAdmin queues;
    private final SessionMetrics metrics;

    SessionResumption(
            SubscriptionStore subscriptions,
            WillStore wills,
            FeedTopics topics,
            QueueAdmin queues,
            SessionMetrics metrics) {
        this.subscriptions = subscriptions;
        this.wills = wills;
        this.topics = topics;
        this.queues = queues;
        this.metrics = metrics;
    }

    /**
     * Applies the plans; the feed, will and takeover records to produce (and have acknowledged before commit) are
     * added to {@code records}.
     *
     * @param connecting by client id
     * @return the resumed subscriptions by client id (for the CONNECT answers)
     */
    Map<String, List<SubscribeApi.Subscription>> apply(
            Map<String, Connecting> connecting, Instant now, List<ProducerRecord<byte[], byte[]>> records) {
        int partitions = topics.publishPartitions();
        List<String> discarded = new ArrayList<>();
        List<String> resumedIds = new ArrayList<>();
        connecting.forEach((clientId, c) -> {
            if (!c.plan().discardSession()) {
                resumedIds.add(clientId);
            } else if (!c.created()) {
                // A new client has nothing to discard: its row, so its subscriptions and queue, did not exist.
                discarded.add(clientId);
            }
        });
        for (SubscriptionStore.Removed r : subscriptions.deleteAllOf(discarded)) {
            records.add(SubscriptionRecords.removal(
                    r.filter(),
                    r.clientId(),
                    connecting.get(r.clientId()).plan().newEpoch(),
                    partitions));
        }
        if (!discarded.isEmpty()) {
            // The old sessions' queues go with them.
            queues.deleteAll(discarded);
        }
        Map<String, List<SubscribeApi.Subscription>> resumed = new HashMap<>();
        subscriptions
                .listAllOf(resumedIds)
                .forEach((clientId, stored) ->
                        resumed.put(clientId, resume(connecting.get(clientId), stored, partitions, records)));

        replaceWills(connecting, now, records);
        connecting.values().stream().filter(c -> c.plan().takeover()).forEach(c -> {
            topics.ensureDownlink(c.plan().takeoverNode());
            records.add(DownlinkCommands.takeover(
                    c.plan().takeoverNode(), c.request().clientId(), c.plan().newEpoch()));
            log.debug(
                    "Client {} taken over from node {} by node {} at epoch {}",
                    c.request().clientId(),
                    c.plan().takeoverNode(),
                    c.request().nodeId(),
                    c.plan().newEpoch());
        });
        List<String> persistent = connecting.values().stream()
                .filter(SessionResumption::queueBacked)
                .map(c -> c.request().clientId())
                .toList();
        if (!persistent.isEmpty()) {
            // Before the subscriptions say "persistent" in the feed: routing appends only to an existing queue.
            queues.ensureAll(persistent, now);
        }
        return resumed;
    }

    /** A resumed session keeps its queue for this connection even when the CONNECT asks for expiry 0. */
    private static boolean queueBacked(Connecting c) {
        return SessionQueueing.queueBacked(
                c.request().sessionExpirySeconds(), c.plan().sessionPresent());
    }

    private List<SubscribeApi.Subscription> resume(
            Connecting c,
            List<StoredSubscription> stored,
            int partitions,
            List<ProducerRecord<byte[], byte[]>> records) {
        String clientId = c.request().clientId();
        long epoch = c.plan().newEpoch();
        TopicPermissions permissions = TopicPermissions.of(c.auth().acl());
        TenantNamespace namespace = TenantNamespace.of(c.auth().tenant());
        List<SubscribeApi.Subscription> kept = new ArrayList<>(stored.size());
        for (StoredSubscription s : stored) {
            // Stored in the namespace's internal form; the ACL speaks the client's names. (A session is only ever
            // resumed from its own namespace, see ConnectService: owns() is the second lock on that door.)
            if (!namespace.owns(s.filter()) || !permissions.maySubscribe(namespace.clientFilter(s.filter()))) {
                // Made under an ACL that has since changed: the resumed session must not keep receiving what the
                // client may no longer subscribe to.
                subscriptions.delete(clientId, s.filter());
                records.add(SubscriptionRecords.removal(s.filter(), clientId, epoch, partitions));
                log.info(
                        "Client {}: subscription '{}' of the resumed session removed, its ACL no longer allows it",
                        clientId,
                        s.filter());
                continue;
            }
            records.add(
                    SubscriptionRecords.upsert(s.toRecord(c.request().nodeId(), epoch, queueBacked(c)), partitions));
            kept.add(s.toApi());
        }
        return kept;
    }

    /**
     * The clients are back: a will their previous connections left pending is cancelled (MQTT 5 3.1.3.2.2), unless
     * the session ends now (clean start, or expired) — the will goes out when the delay passes "or the Session ends,
     * whichever happens first" — or it is due already and only waits for the publisher's next run; then it is
     * published now, with this batch's records. The new connections' wills are stored.
     */
    private void replaceWills(
            Map<String, Connecting> connecting, Instant now, List<ProducerRecord<byte[], byte[]>> records) {
        List<WillStore.NewConnection> next = connecting.values().stream()
                .map(c -> new WillStore.NewConnection(
                        c.request().clientId(),
                        c.plan().newEpoch(),
                        c.request().nodeId(),
                        c.request().protocolVersion(),
                        inNamespace(
                                c.request().will(), TenantNamespace.of(c.auth().tenant()))))
                .toList();
        wills.storeAll(next);
        connecting.forEach((clientId, c) -> {
            StoredWill will = c.earlierWill();
            if (will == null) {
                return;
            }
            boolean publish = c.plan().discardSession() || WillTiming.dueAt(will.publishAt(), now);
            if (publish) {
                records.add(will.toRecord(now.toEpochMilli()));
            }
            AfterCommit.run(publish ? () -> metrics.willsPublished(1) : metrics::willCancelled);
        });
    }

    /** The will as stored and published: its topic in the connection's namespace (checked by the ACL before). */
    private static ConnectApi.Will inNamespace(ConnectApi.Will will, TenantNamespace namespace) {
        if (will == null || namespace.global()) {
            return will;
        }
        return new ConnectApi.Will(
                namespace.topic(will.topic()),
                will.payload(),
                will.qos(),
                will.retain(),
                will.delaySeconds(),
                will.properties());
    }
}
