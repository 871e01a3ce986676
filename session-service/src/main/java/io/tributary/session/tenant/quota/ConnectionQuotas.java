package io.tributary.session.tenant.quota;

import io.tributary.common.session.ConnectApi;
import io.tributary.session.store.AfterCommit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Tenants' CONNECT quotas, applied to a CONNECT batch inside its transaction, in arrival order:
 *
 * <ul>
 *   <li>the CONNECT rate: what the tenant's current one-second window in Redis has left ({@link ConnectRateWindow}),
 *       beyond it {@link ConnectApi.RefusalReason#CONNECTION_RATE_EXCEEDED};
 *   <li>the connections and the persistent sessions: the tenants with either quota are locked and their connected
 *       clients and persistent sessions counted, so both hold across every transport node and session-service
 *       instance (two batches of one tenant are admitted one after the other, each seeing what the other committed);
 *       beyond either {@link ConnectApi.RefusalReason#QUOTA_EXCEEDED}.
 * </ul>
 *
 * A client that is connected already (a takeover, or a reconnect before the old connection was noticed gone) keeps
 * its connection place; a client whose persistent session is stored keeps its session place (resuming it, or
 * starting it clean, adds no session).
 */
@Component
public class ConnectionQuotas {

    private static final Logger log = LoggerFactory.getLogger(ConnectionQuotas.class);

    /**
     * A CONNECT as the quotas see it.
     *
     * @param tenant     the tenant of its credential (null: the global namespace)
     * @param persistent whether its session is to outlive the connection (session expiry above 0)
     */
    public record Candidate(String clientId, String tenant, boolean persistent) {}

    /** A refused CONNECT: the answer, and the quota that refused it. */
    public record Refused(ConnectApi.ConnectRefusal refusal, QuotaRefusals.Quota quota) {}

    private final QuotaStore store;
    private final ConnectRateWindow rates;
    private final QuotaRefusals refusals;

    public ConnectionQuotas(QuotaStore store, ConnectRateWindow rates, QuotaRefusals refusals) {
        this.store = store;
        this.rates = rates;
        this.refusals = refusals;
    }

    /**
     * Decides which of the batch's CONNECTs their tenants' quotas admit. Refusals are counted once the batch
     * commits; a caller that answers a refusal by rolling back counts it itself ({@link #countRefusal}).
     *
     * @return one entry per candidate: null when admitted, the refusal otherwise
     */
    public List<Refused> admit(List<Candidate> batch) {
        Set<String> tenantIds = new LinkedHashSet<>();
        batch.stream().map(Candidate::tenant).filter(Objects::nonNull).forEach(tenantIds::add);
        Refused[] refused = new Refused[batch.size()];
        if (tenantIds.isEmpty()) {
            return Arrays.asList(refused);
        }
        Map<String, QuotaStore.ConnectQuotas> quotas = new HashMap<>();
        store.lockConnectQuotas(tenantIds).forEach(q -> quotas.put(q.tenant(), q));
        if (quotas.isEmpty()) {
            return Arrays.asList(refused);
        }
        limitRates(batch, quotas, refused);
        limitCounts(batch, quotas, refused);
        for (int i = 0; i < batch.size(); i++) {
            if (refused[i] != null) {
                String tenant = batch.get(i).tenant();
                QuotaRefusals.Quota quota = refused[i].quota();
                AfterCommit.run(() -> refusals.count(tenant, quota));
            }
        }
        return Arrays.asList(refused);
    }

    /** Counts a CONNECT refused by a quota whose transaction the caller rolls back. */
    public void countRefusal(String tenant, QuotaRefusals.Quota quota) {
        refusals.count(tenant, quota);
    }

    /** Refuses, per tenant with a rate, the CONNECTs beyond what its current window has left. */
    private void limitRates(List<Candidate> batch, Map<String, QuotaStore.ConnectQuotas> quotas, Refused[] refused) {
        Map<String, Integer> wanted = new LinkedHashMap<>();
        Map<String, Integer> limits = new HashMap<>();
        for (Candidate c : batch) {
            QuotaStore.ConnectQuotas q = c.tenant() == null ? null : quotas.get(c.tenant());
            if (q != null && q.connectRate() != null) {
                wanted.merge(c.tenant(), 1, Integer::sum);
                limits.put(c.tenant(), q.connectRate());
            }
        }
        Map<String, Long> granted = new HashMap<>(rates.take(wanted, limits));
        for (int i = 0; i < batch.size(); i++) {
            Candidate c = batch.get(i);
            if (!wanted.containsKey(c.tenant())) {
                continue;
            }
            long left = granted.getOrDefault(c.tenant(), 0L);
            if (left > 0) {
                granted.put(c.tenant(), left - 1);
                continue;
            }
            int rate = limits.get(c.tenant());
            refused[i] = new Refused(
                    new ConnectApi.ConnectRefusal(
                            ConnectApi.RefusalReason.CONNECTION_RATE_EXCEEDED,
                            "tenant " + c.tenant() + " may connect " + rate + " client(s) per second at most"),
                    QuotaRefusals.Quota.CONNECT_RATE);
            log.warn(
                    "CONNECT of '{}' refused: tenant {} connects {} client(s) per second at most",
                    c.clientId(),
                    c.tenant(),
                    rate);
        }
    }

    /** Refuses the CONNECTs that would take a connection or a persistent session beyond their tenant's quota. */
    private void limitCounts(List<Candidate> batch, Map<String, QuotaStore.ConnectQuotas> quotas, Refused[] refused) {
        List<String> connectionTenants = new ArrayList<>();
        List<String> sessionTenants = new ArrayList<>();
        for (QuotaStore.ConnectQuotas q : quotas.values()) {
            if (q.maxConnections() != null) {
                connectionTenants.add(q.tenant());
            }
            if (q.maxSessions() != null) {
                sessionTenants.add(q.tenant());
            }
        }
        if (connectionTenants.isEmpty() && sessionTenants.isEmpty()) {
            return;
        }
        QuotaStore.Usage usage = store.countForConnect(connectionTenants, sessionTenants);
        Map<String, Long> connected = new HashMap<>(usage.connections());
        Map<String, Long> stored = new HashMap<>(usage.sessions());
        List<String> locked = quotas.values().stream()
                .filter(QuotaStore.ConnectQuotas::locked)
                .map(QuotaStore.ConnectQuotas::tenant)
                .toList();
        List<String> counted = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            QuotaStore.ConnectQuotas q = quotas.get(batch.get(i).tenant());
            if (refused[i] == null && q != null && q.locked()) {
                counted.add(batch.get(i).clientId());
            }
        }
        Map<String, QuotaStore.Held> held = new HashMap<>(store.heldSessions(counted, locked));
        for (int i = 0; i < batch.size(); i++) {
            Candidate c = batch.get(i);
            QuotaStore.ConnectQuotas q = c.tenant() == null ? null : quotas.get(c.tenant());
            if (refused[i] != null || q == null || !q.locked()) {
                continue;
            }
            QuotaStore.Held before = held.getOrDefault(c.clientId(), new QuotaStore.Held(false, false));
            boolean newConnection = q.maxConnections() != null && !before.connected();
            boolean newSession = q.maxSessions() != null && c.persistent() && !before.persistent();
            long connections = connected.getOrDefault(c.tenant(), 0L);
            long sessions = stored.getOrDefault(c.tenant(), 0L);
            if (newConnection && connections >= q.maxConnections()) {
                refused[i] = quotaExceeded(c, q.maxConnections() + " connection(s)", QuotaRefusals.Quota.CONNECTIONS);
            } else if (newSession && sessions >= q.maxSessions()) {
                refused[i] = quotaExceeded(c, q.maxSessions() + " persistent session(s)", QuotaRefusals.Quota.SESSIONS);
            } else {
                if (newConnection) {
                    connected.put(c.tenant(), connections + 1);
                }
                if (newSession) {
                    stored.put(c.tenant(), sessions + 1);
                }
                // A later CONNECT of the same client in this batch takes over this one: it holds the places now.
                held.put(c.clientId(), new QuotaStore.Held(true, before.persistent() || c.persistent()));
            }
        }
    }

    private static Refused quotaExceeded(Candidate c, String what, QuotaRefusals.Quota quota) {
        log.warn("CONNECT of '{}' refused: tenant {} has its {} in use", c.clientId(), c.tenant(), what);
        return new Refused(
                new ConnectApi.ConnectRefusal(
                        ConnectApi.RefusalReason.QUOTA_EXCEEDED,
                        "tenant " + c.tenant() + " has " + what + " at most, all in use"),
                quota);
    }
}
