package io.tributary.session.subscription;

import io.tributary.common.session.SubscribeApi;
import io.tributary.common.subscription.SubscriptionRecord;
import io.tributary.common.subscription.SubscriptionRecords;
import io.tributary.session.kafka.FeedTopics;
import io.tributary.session.kafka.RecordSender;
import io.tributary.session.store.SessionRecord;
import io.tributary.session.store.SessionStore;
import io.tributary.session.store.SubscriptionStore;
import io.tributary.session.tenant.quota.SubscriptionQuotas;
import io.tributary.session.web.ApiException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

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
    private final SubscriptionQuotas quotas;

    public SubscriptionService(
            SessionStore sessions,
            SubscriptionStore subscriptions,
            FeedTopics topics,
            RecordSender sender,
            Clock clock,
            SubscriptionQuotas quotas) {
        this.sessions = sessions;
        this.subscriptions = subscriptions;
        this.topics = topics;
        this.sender = sender;
        this.clock = clock;
        this.quotas = quotas;
    }

    /** What one SUBSCRIBE of a batch came to. */
    public sealed interface SubscribeResult permits Subscribed, Stale {}

    /** What one UNSUBSCRIBE of a batch came to. */
    public sealed interface UnsubscribeResult permits Unsubscribed, Stale {}

    /**
     * @param reasonCodes one per requested subscription
     * @param created     one per requested subscription: true when it did not exist before this SUBSCRIBE
     */
    public record Subscribed(List<Integer> reasonCodes, List<Boolean> created) implements SubscribeResult {}

    /** @param response 0x00 or 0x11 per filter */
    public record Unsubscribed(SubscribeApi.UnsubscribeResponse response) implements UnsubscribeResult {}

    /** The caller's epoch does not speak for the live connection: nothing of the request was stored. */
    public record Stale(String reason) implements SubscribeResult, UnsubscribeResult {}

    /** One SUBSCRIBE: {@link #subscribeAll} with a batch of one; 409 when the caller's epoch is stale. */
    @Transactional
    public Subscribed subscribe(SubscribeApi.SubscribeRequest request) {
        SubscribeResult outcome = subscribeAll(List.of(request), outcomes -> {}).get(0);
        if (outcome instanceof Stale stale) {
            throw ApiException.conflict(stale.reason());
        }
        return (Subscribed) outcome;
    }

    /**
     * Many SUBSCRIBEs (of distinct or repeated clients) in one transaction: the tenants with a subscription quota
     * locked and their filters admitted ({@link SubscriptionQuotas}), the sessions locked in client id order,
     * the subscriptions upserted in one statement per round (a (client, filter) pair repeated in the batch goes in a
     * later round, as if it had come later), the feed records of all awaited once.
     *
     * @param beforeCommit given the outcomes once the feed records are acknowledged, still in the transaction and under
     *     the row locks: work that must not wait for the commit (the retained lookup, {@code SubscribeBatches}); it
     *     must not block
     * @return per request, in order
     */
    @Transactional
    public List<SubscribeResult> subscribeAll(
            List<SubscribeApi.SubscribeRequest> requests, Consumer<List<SubscribeResult>> beforeCommit) {
        // Tenants before sessions, as CONNECT locks them: the subscription quotas of the batch's tenants.
        SubscriptionQuotas.Locked tenants = quotas.lock(requests);
        Map<String, SessionRecord> rows = sessions.lockAll(new java.util.TreeSet<>(
                requests.stream().map(SubscribeApi.SubscribeRequest::clientId).toList()));
        Instant now = clock.instant();
        int partitions = topics.publishPartitions();
        Batch batch = new Batch(requests, rows);
        List<SubscriptionQuotas.Candidate> valid = admit(batch);
        Set<SubscriptionQuotas.Candidate> overQuota = quotas.refused(tenants, requests, valid);
        List<List<int[]>> rounds = rounds(batch, valid, overQuota);
        List<RecordSender.Sent> sent = new ArrayList<>(rounds.size());
        for (List<int[]> round : rounds) {
            sent.add(storeRound(batch, round, now, partitions));
        }
        sent.forEach(RecordSender.Sent::await);
        SubscribeResult[] results = batch.results;
        for (int r = 0; r < requests.size(); r++) {
            if (results[r] == null) {
                results[r] = new Subscribed(List.of(batch.codes[r]), List.of(batch.created[r]));
            }
        }
        List<SubscribeResult> outcomes = List.of(results);
        beforeCommit.accept(outcomes);
        return outcomes;
    }

    /**
     * One {@link #subscribeAll} batch as it is worked through: the requests and their locked session rows; per
     * request, its result when it is already known (stale), else a reason code and a created flag per subscription,
     * filled in step by step.
     */
    private static final class Batch {
        final List<SubscribeApi.SubscribeRequest> requests;
        final Map<String, SessionRecord> rows;
        final SubscribeResult[] results;
        final Integer[][] codes;
        final Boolean[][] created;

        Batch(List<SubscribeApi.SubscribeRequest> requests, Map<String, SessionRecord> rows) {
            this.requests = requests;
            this.rows = rows;
            this.results = new SubscribeResult[requests.size()];
            this.codes = new Integer[requests.size()][];
            this.created = new Boolean[requests.size()][];
        }
    }

    /**
     * Marks the stale requests, rejects the filters {@link FilterAdmission} refuses and grants the others their QoS;
     * returns the granted ones, still subject to the quotas.
     */
    private static List<SubscriptionQuotas.Candidate> admit(Batch batch) {
        List<SubscriptionQuotas.Candidate> valid = new ArrayList<>();
        for (int r = 0; r < batch.requests.size(); r++) {
            SubscribeApi.SubscribeRequest request = batch.requests.get(r);
            String stale = staleness(
                    batch.rows.get(request.clientId()), request.clientId(), request.epoch(), request.nodeId());
            if (stale != null) {
                batch.results[r] = new Stale(stale);
                continue;
            }
            int n = request.subscriptions().size();
            batch.codes[r] = new Integer[n];
            batch.created[r] = new Boolean[n];
            for (int i = 0; i < n; i++) {
                SubscribeApi.Subscription s = request.subscriptions().get(i);
                int rejection = FilterAdmission.rejection(s.filter());
                if (rejection >= 0) {
                    batch.codes[r][i] = rejection;
                    batch.created[r][i] = false;
                    continue;
                }
                batch.codes[r][i] = FilterAdmission.grantedQos(s.qos());
                valid.add(new SubscriptionQuotas.Candidate(r, i));
            }
        }
        return valid;
    }

    /**
     * Refuses the candidates over quota; the others, flattened to {request, subscription} pairs, go to rounds by
     * (client, filter) occurrence: the n-th time a pair appears in the batch, it goes in round n.
     */
    private static List<List<int[]>> rounds(
            Batch batch, List<SubscriptionQuotas.Candidate> valid, Set<SubscriptionQuotas.Candidate> overQuota) {
        List<List<int[]>> rounds = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (SubscriptionQuotas.Candidate c : valid) {
            if (overQuota.contains(c)) {
                batch.codes[c.request()][c.index()] = FilterAdmission.QUOTA_EXCEEDED;
                batch.created[c.request()][c.index()] = false;
                continue;
            }
            SubscribeApi.SubscribeRequest request = batch.requests.get(c.request());
            String filter = request.subscriptions().get(c.index()).filter();
            int round = seen.merge(request.clientId() + '\u0000' + filter, 1, Integer::sum) - 1;
            if (round == rounds.size()) {
                rounds.add(new ArrayList<>());
            }
            rounds.get(round).add(new int[] {c.request(), c.index()});
        }
        return rounds;
    }

    /**
     * Sends the feed records of one round and upserts its subscriptions in one statement; returns the send, to be
     * awaited with the others before commit.
     */
    private RecordSender.Sent storeRound(Batch batch, List<int[]> round, Instant now, int partitions) {
        List<SubscriptionStore.Upsert> upserts = new ArrayList<>(round.size());
        for (int[] at : round) {
            SubscribeApi.SubscribeRequest request = batch.requests.get(at[0]);
            SubscribeApi.Subscription s = request.subscriptions().get(at[1]);
            upserts.add(new SubscriptionStore.Upsert(
                    request.clientId(),
                    new SubscribeApi.Subscription(
                            s.filter(),
                            batch.codes[at[0]][at[1]],
                            s.noLocal(),
                            s.retainAsPublished(),
                            s.retainHandling(),
                            s.subscriptionId())));
        }
        List<ProducerRecord<byte[], byte[]>> records = feedRecords(batch, round, partitions);
        // Sent before the upsert and awaited before commit, all under the row locks: Kafka acknowledges while
        // PostgreSQL upserts (the ack was the largest part of a quiet SUBSCRIBE, docs/benchmarks-history.md). An upsert
        // that fails now leaves feed records of subscriptions not stored, as a commit failing after the ack
        // always could; a deadlock's retry sends the same records again.
        RecordSender.Sent sent = sender.send(records);
        List<Boolean> inserted = subscriptions.upsertAll(upserts, now);
        for (int k = 0; k < round.size(); k++) {
            int[] at = round.get(k);
            batch.created[at[0]][at[1]] = inserted.get(k);
        }
        return sent;
    }

    private static List<ProducerRecord<byte[], byte[]>> feedRecords(Batch batch, List<int[]> round, int partitions) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(round.size());
        for (int[] at : round) {
            SubscribeApi.SubscribeRequest request = batch.requests.get(at[0]);
            SubscribeApi.Subscription s = request.subscriptions().get(at[1]);
            records.add(SubscriptionRecords.upsert(
                    new SubscriptionRecord(
                            request.clientId(),
                            s.filter(),
                            request.nodeId(),
                            batch.codes[at[0]][at[1]],
                            s.noLocal(),
                            s.retainAsPublished(),
                            s.retainHandling(),
                            request.epoch(),
                            batch.rows.get(request.clientId()).sessionExpirySeconds() > 0),
                    partitions));
        }
        return records;
    }

    /**
     * Why a caller with {@code epoch} on {@code nodeId} does not speak for the live connection; null if it does.
     * {@code nodeId} null: the node is not checked.
     */
    private static String staleness(SessionRecord session, String clientId, long epoch, String nodeId) {
        if (session == null) {
            return "client " + clientId + " has no session";
        }
        if (session.epoch() != epoch || !session.connected()) {
            return "epoch " + epoch + " of client " + clientId + " is not current (current " + session.epoch()
                    + (session.connected() ? "" : ", offline") + ")";
        }
        if (nodeId != null && !nodeId.equals(session.nodeId())) {
            return "client " + clientId + " is connected on node " + session.nodeId() + ", not " + nodeId;
        }
        return null;
    }

    /**
     * Many UNSUBSCRIBEs (of distinct or repeated clients) in one transaction: the sessions locked in client id order,
     * the subscriptions of every current request deleted in one statement, the feed tombstones of all awaited once.
     * Each request is answered as if the batch's requests had come one after the other: a (client, filter) pair
     * named twice is removed by the first that names it, and is reported as not existing to the later ones.
     *
     * @return per request, in order; nothing of a {@link Stale} one was removed
     */
    @Transactional
    public List<UnsubscribeResult> unsubscribeAll(List<SubscribeApi.UnsubscribeRequest> requests) {
        Map<String, SessionRecord> rows = sessions.lockAll(new java.util.TreeSet<>(
                requests.stream().map(SubscribeApi.UnsubscribeRequest::clientId).toList()));
        UnsubscribeResult[] results = new UnsubscribeResult[requests.size()];
        Set<SubscriptionStore.Removed> asked = new LinkedHashSet<>();
        for (int r = 0; r < requests.size(); r++) {
            SubscribeApi.UnsubscribeRequest request = requests.get(r);
            // UNSUBSCRIBE names no node: the epoch alone identifies the connection (epochs are unique).
            String stale = staleness(rows.get(request.clientId()), request.clientId(), request.epoch(), null);
            if (stale != null) {
                results[r] = new Stale(stale);
            } else {
                request.filters().forEach(f -> asked.add(new SubscriptionStore.Removed(request.clientId(), f)));
            }
        }
        Set<SubscriptionStore.Removed> deleted = subscriptions.deleteEach(asked);
        int partitions = topics.publishPartitions();
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        Set<SubscriptionStore.Removed> answered = new HashSet<>();
        for (int r = 0; r < requests.size(); r++) {
            SubscribeApi.UnsubscribeRequest request = requests.get(r);
            if (results[r] != null) {
                continue;
            }
            List<Integer> codes = new ArrayList<>(request.filters().size());
            for (String filter : request.filters()) {
                SubscriptionStore.Removed pair = new SubscriptionStore.Removed(request.clientId(), filter);
                if (deleted.contains(pair) && answered.add(pair)) {
                    records.add(SubscriptionRecords.removal(filter, request.clientId(), request.epoch(), partitions));
                    codes.add(FilterAdmission.SUCCESS);
                } else {
                    codes.add(FilterAdmission.NO_SUBSCRIPTION_EXISTED);
                }
            }
            results[r] = new Unsubscribed(new SubscribeApi.UnsubscribeResponse(codes));
        }
        sender.sendAndAwait(records);
        return List.of(results);
    }
}
