package io.tributary.session.connect;

import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.SubscribeApi;
import io.tributary.session.auth.Authentication;
import io.tributary.session.auth.ConnectRefusedException;
import io.tributary.session.auth.CredentialStore;
import io.tributary.session.blocklist.BlockListService;
import io.tributary.session.config.SessionServiceProperties;
import io.tributary.session.kafka.RecordSender;
import io.tributary.session.metrics.SessionMetrics;
import io.tributary.session.presence.Presence;
import io.tributary.session.presence.PresenceStore;
import io.tributary.session.store.AfterCommit;
import io.tributary.session.store.SessionStore;
import io.tributary.session.store.StatementPipeline;
import io.tributary.session.tenant.quota.ConnectionQuotas;
import io.tributary.session.will.StoredWill;
import io.tributary.session.will.WillStore;
import io.tributary.sessionqueue.QueueAdmin;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Clients that passed CONNECT on transport nodes, taken a batch at a time in one transaction. Under the sessions' row
 * locks (taken in client id order): draw each a new epoch from the global sequence, discard or resume its stored
 * session (re-pointing resumed subscriptions in the feed to the new node), tell previous nodes to close their
 * connections, wait for Kafka to acknowledge all of it, then record the new owners.
 *
 * <p>Every statement covers the whole batch (one {@code IN (...)} query or one JDBC batch), so a storm of CONNECTs
 * costs a handful of round trips and one commit per batch instead of a dozen round trips per client; what each
 * client's session goes through is decided by {@link ConnectPlan} and {@link SessionResumption} exactly as for one.
 */
@Service
public class ConnectService {

    private static final Logger log = LoggerFactory.getLogger(ConnectService.class);

    private static final int LOCK_ATTEMPTS = 3;

    /** The whole reason string of a CONNECT refused because its client id's session is another namespace's. */
    static final String NOT_AUTHORIZED = "not authorized";

    private final SessionStore sessions;
    private final SessionResumption resumption;
    private final RecordSender sender;
    private final PresenceStore presence;
    private final QueueAdmin queues;
    private final SessionMetrics metrics;
    private final Clock clock;
    private final CredentialStore credentials;
    private final BlockListService blockList;
    private final ConnectionQuotas quotas;
    private final SessionServiceProperties.Expiry expiry;
    private final WillStore wills;

    public ConnectService(
            SessionStore sessions,
            WillStore wills,
            SessionResumption resumption,
            RecordSender sender,
            PresenceStore presence,
            QueueAdmin queues,
            SessionMetrics metrics,
            Clock clock,
            CredentialStore credentials,
            BlockListService blockList,
            ConnectionQuotas quotas,
            SessionServiceProperties properties) {
        this.sessions = sessions;
        this.wills = wills;
        this.resumption = resumption;
        this.sender = sender;
        this.presence = presence;
        this.queues = queues;
        this.metrics = metrics;
        this.clock = clock;
        this.credentials = credentials;
        this.blockList = blockList;
        this.quotas = quotas;
        this.expiry = properties.expiry();
    }

    /**
     * One CONNECT: {@link #connectAll} with a batch of one.
     *
     * @throws ConnectRefusedException when a block list entry added meanwhile matches it, or one of its tenant's
     *         quotas (connections, persistent sessions, CONNECT rate) is used up
     * @throws io.tributary.session.web.ApiException 503 when its credential changed meanwhile
     */
    @Transactional
    public ConnectApi.ConnectResponse connect(ConnectApi.ConnectRequest request, Authentication auth) {
        ConnectionQuotas.Refused[] overQuota = new ConnectionQuotas.Refused[1];
        ConnectApi.ConnectOutcome outcome =
                connectAll(List.of(new Admitted(request, auth)), overQuota).get(0);
        if (outcome.refused() != null) {
            if (overQuota[0] != null) {
                // The exception rolls the transaction back, so the count registered for after commit never runs.
                quotas.countRefusal(auth.tenant(), overQuota[0].quota());
            }
            throw new ConnectRefusedException(
                    outcome.refused().reason(),
                    overQuota[0] != null ? "quota" : "banned",
                    outcome.refused().message());
        }
        if (outcome.unavailable() != null) {
            throw new io.tributary.session.web.ApiException(
                    org.springframework.http.HttpStatus.SERVICE_UNAVAILABLE, outcome.unavailable());
        }
        return outcome.accepted();
    }

    /**
     * @param batch authenticated CONNECTs (by {@link io.tributary.session.auth.ConnectAuthenticator}, before this
     *              transaction); a client id may appear more than once, later ones then take over earlier ones
     * @return one outcome per request, in order
     * @throws io.tributary.session.kafka.KafkaUnavailableException when Kafka did not take the records: nothing of
     *         the batch is kept
     */
    @Transactional
    public List<ConnectApi.ConnectOutcome> connectAll(List<Admitted> batch) {
        return connectAll(batch, new ConnectionQuotas.Refused[batch.size()]);
    }

    /** {@link #connectAll(List)}, noting in {@code overQuota} which requests a tenant's quota refused. */
    private List<ConnectApi.ConnectOutcome> connectAll(List<Admitted> requested, ConnectionQuotas.Refused[] overQuota) {
        // From here on every CONNECT asks for no more session expiry than the maximum: that is what is stored, what
        // decides whether it counts as a persistent session, and what the node is told to use.
        List<Admitted> batch = requested.stream()
                .map(a -> new Admitted(
                        a.request()
                                .withSessionExpirySeconds(
                                        expiry.grantedSeconds(a.request().sessionExpirySeconds())),
                        a.auth()))
                .toList();
        Instant now = clock.instant();
        ConnectApi.ConnectOutcome[] outcomes = new ConnectApi.ConnectOutcome[batch.size()];
        // Under the block list's shared lock: an entry added since authentication is seen here, and one added later
        // waits for this transaction and then finds the connections.
        List<ConnectRefusedException> banned =
                blockList.checkAllLocked(batch.stream().map(Admitted::request).toList());
        // Held until commit: a credential change waits for these CONNECTs and then finds their connections to close;
        // a change that committed first is seen here and that client is asked to come back (server unavailable).
        Map<Long, Long> versions = credentials.lockVersionsForConnect(batch.stream()
                .map(a -> a.auth().credentialId())
                .filter(Objects::nonNull)
                .distinct()
                .sorted()
                .toList());
        List<Integer> passed = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            Authentication auth = batch.get(i).auth();
            if (banned.get(i) != null) {
                outcomes[i] = ConnectApi.ConnectOutcome.refused(banned.get(i).refusal());
            } else if (auth.credentialId() != null
                    && !Long.valueOf(auth.version()).equals(versions.get(auth.credentialId()))) {
                outcomes[i] = ConnectApi.ConnectOutcome.unavailable(
                        "credential " + auth.credentialId() + " changed during CONNECT; connect again");
            } else {
                passed.add(i);
            }
        }
        // Takes the CONNECT rate of these clients' tenants from Redis, locks the tenants with a connection or session
        // quota (after the credentials, as every locker of both does), counts their connections and persistent
        // sessions and admits up to the quotas, in arrival order.
        List<ConnectionQuotas.Refused> refusals = quotas.admit(passed.stream()
                .map(i -> new ConnectionQuotas.Candidate(
                        batch.get(i).request().clientId(),
                        batch.get(i).auth().tenant(),
                        batch.get(i).request().sessionExpirySeconds() > 0))
                .toList());
        List<Integer> admitted = new ArrayList<>();
        for (int k = 0; k < passed.size(); k++) {
            if (refusals.get(k) != null) {
                outcomes[passed.get(k)] =
                        ConnectApi.ConnectOutcome.refused(refusals.get(k).refusal());
                overQuota[passed.get(k)] = refusals.get(k);
            } else {
                admitted.add(passed.get(k));
            }
        }
        for (List<Integer> round : rounds(batch, admitted)) {
            connectRound(batch, round, now, outcomes);
        }
        return List.of(outcomes);
    }

    /** A CONNECT and the outcome of its authentication. */
    public record Admitted(ConnectApi.ConnectRequest request, Authentication auth) {}

    /**
     * Splits the admitted requests into rounds in which each client id appears once, in arrival order: the second
     * CONNECT of a client in one batch is applied after the first, as if it had come in the next batch.
     */
    private static List<List<Integer>> rounds(List<Admitted> batch, List<Integer> admitted) {
        List<List<Integer>> rounds = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (int i : admitted) {
            int round = seen.merge(batch.get(i).request().clientId(), 1, Integer::sum) - 1;
            if (round == rounds.size()) {
                rounds.add(new ArrayList<>());
            }
            rounds.get(round).add(i);
        }
        return rounds;
    }

    /** Connects distinct clients; the new owners are recorded once Kafka has acknowledged their records. */
    private void connectRound(
            List<Admitted> batch, List<Integer> round, Instant now, ConnectApi.ConnectOutcome[] outcomes) {
        // Client id order: every multi-row locker takes rows in this order, so batches never deadlock each other.
        Map<String, Integer> byClient = new java.util.TreeMap<>();
        round.forEach(i -> byClient.put(batch.get(i).request().clientId(), i));
        List<SessionStore.Connected> connections = new ArrayList<>(byClient.size());
        for (int i : byClient.values()) {
            connections.add(connection(batch.get(i).request(), batch.get(i).auth(), 0, now));
        }
        Map<String, StoredWill> earlierWills = new HashMap<>();
        Map<String, SessionStore.LockedForConnect> rows = lockOrCreate(connections, now, earlierWills);
        Map<String, SessionResumption.Connecting> connecting = new LinkedHashMap<>();
        Map<String, Presence> presences = new LinkedHashMap<>();
        for (String clientId : List.copyOf(byClient.keySet())) {
            Admitted a = batch.get(byClient.get(clientId));
            SessionStore.LockedForConnect locked = rows.get(clientId);
            if (!locked.created() && !Objects.equals(locked.tenant(), a.auth().tenant())) {
                // Client ids are one space for all tenants: a session (its queue, subscriptions, will, live
                // connection) belongs to the namespace that created it, and no other may resume or take it over.
                // The client is told no more than "not authorized" (the reason string of any refused authorization
                // says nothing else): whose the session is, or that it is another namespace's, stays in this log.
                outcomes[byClient.remove(clientId)] = ConnectApi.ConnectOutcome.refused(
                        new ConnectApi.ConnectRefusal(ConnectApi.RefusalReason.NOT_AUTHORIZED, NOT_AUTHORIZED));
                log.warn(
                        "CONNECT of '{}' refused: its session belongs to {}, the client to {}",
                        clientId,
                        locked.tenant() == null ? "the global namespace" : "tenant " + locked.tenant(),
                        a.auth().tenant() == null
                                ? "the global namespace"
                                : "tenant " + a.auth().tenant());
                continue;
            }
            ConnectPlan plan =
                    ConnectPlan.of(locked.row(), locked.created(), a.request().cleanStart(), now, locked.newEpoch());
            connecting.put(
                    clientId,
                    new SessionResumption.Connecting(
                            a.request(),
                            a.auth(),
                            plan,
                            locked.created(),
                            locked.row().connected(),
                            earlierWills.get(clientId)));
            presences.put(clientId, new Presence(a.request().nodeId(), plan.newEpoch(), now));
        }
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        Map<String, List<SubscribeApi.Subscription>> resumed = resumption.apply(connecting, now, records);
        sender.sendAndAwait(records);

        List<SessionStore.Connected> connected = new ArrayList<>(connecting.size());
        for (SessionResumption.Connecting c : connecting.values()) {
            ConnectApi.ConnectRequest r = c.request();
            long epoch = c.plan().newEpoch();
            connected.add(connection(r, c.auth(), epoch, now));
            Authentication auth = c.auth();
            outcomes[byClient.get(r.clientId())] = ConnectApi.ConnectOutcome.accepted(new ConnectApi.ConnectResponse(
                    epoch,
                    c.plan().sessionPresent(),
                    resumed.getOrDefault(r.clientId(), List.of()),
                    auth.acl(),
                    auth.expiresAt() == null ? null : auth.expiresAt().toEpochMilli(),
                    auth.tenant(),
                    r.sessionExpirySeconds()));
            boolean wasConnected = c.wasConnected();
            boolean takeover = c.plan().takeover();
            AfterCommit.run(() -> metrics.connected(wasConnected, takeover));
        }
        sessions.markAllConnected(connected);
        // Advisory and never awaited (PresenceStore): sent once the connections are committed, so a rolled-back
        // CONNECT leaves none; the CONNACK does not wait for Redis.
        AfterCommit.run(() -> presence.recordAll(presences));
    }

    /**
     * Locks the rows (inserting the missing ones) and draws the new epochs; in the same round trip, takes the wills
     * earlier connections left into {@code earlierWills} ({@link WillStore#takeEarlier}). A row can vanish between
     * the insert and the lock (an expiry sweep or a disconnect with expiry 0 committed in between), hence the retry
     * for those.
     */
    private Map<String, SessionStore.LockedForConnect> lockOrCreate(
            List<SessionStore.Connected> connections, Instant now, Map<String, StoredWill> earlierWills) {
        Map<String, SessionStore.LockedForConnect> rows = new HashMap<>();
        List<SessionStore.Connected> missing = connections;
        for (int attempt = 0; attempt < LOCK_ATTEMPTS && !missing.isEmpty(); attempt++) {
            StatementPipeline.Read<Map<String, StoredWill>> earlier = wills.takeEarlier(missing);
            rows.putAll(sessions.lockOrCreateForConnect(missing, now, earlier));
            earlierWills.putAll(earlier.result());
            missing = missing.stream()
                    .filter(c -> !rows.containsKey(c.clientId()))
                    .toList();
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("session rows of "
                    + missing.stream().map(SessionStore.Connected::clientId).toList() + " keep disappearing");
        }
        return rows;
    }

    /** What the sessions table records about an admitted CONNECT's new connection of {@code epoch}. */
    private static SessionStore.Connected connection(
            ConnectApi.ConnectRequest r, Authentication auth, long epoch, Instant now) {
        return new SessionStore.Connected(
                r.clientId(),
                new SessionStore.Connection(
                        r.nodeId(),
                        epoch,
                        r.cleanStart(),
                        r.sessionExpirySeconds(),
                        r.protocolVersion(),
                        r.keepAliveSeconds(),
                        r.remoteAddress(),
                        r.username(),
                        now,
                        r.nodeIncarnation()),
                auth.credentialId(),
                auth.tenant());
    }
}
