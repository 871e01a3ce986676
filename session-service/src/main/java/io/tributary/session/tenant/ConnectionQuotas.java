package io.tributary.session.tenant;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.common.session.SessionApi;
import io.tributary.session.store.AfterCommit;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Tenants' connection quotas, applied to a CONNECT batch inside its transaction. The tenants with a quota are locked
 * and their connected sessions counted, so the quota holds across every transport node and session-service
 * instance: two batches of one tenant are admitted one after the other, each seeing what the other committed. A
 * client that is connected already (a takeover or a reconnect before the old connection was noticed gone) keeps its
 * place; a new connection beyond the quota is refused with {@link SessionApi.RefusalReason#QUOTA_EXCEEDED}.
 */
@Component
public class ConnectionQuotas {

    private static final Logger log = LoggerFactory.getLogger(ConnectionQuotas.class);

    /** A CONNECT as the quota sees it: the client and the tenant of its credential (null: the global namespace). */
    public record Candidate(String clientId, String tenant) {}

    private final TenantStore tenants;
    private final MeterRegistry registry;

    public ConnectionQuotas(TenantStore tenants, MeterRegistry registry) {
        this.tenants = tenants;
        this.registry = registry;
    }

    /**
     * Decides, in arrival order, which of the batch's CONNECTs their tenants' quotas admit.
     *
     * @return one entry per candidate: null when admitted, the refusal otherwise
     */
    public List<SessionApi.ConnectRefusal> admit(List<Candidate> batch) {
        Set<String> tenantIds = new LinkedHashSet<>();
        batch.stream().map(Candidate::tenant).filter(Objects::nonNull).forEach(tenantIds::add);
        SessionApi.ConnectRefusal[] refusals = new SessionApi.ConnectRefusal[batch.size()];
        if (tenantIds.isEmpty()) {
            return Arrays.asList(refusals);
        }
        Map<String, Integer> quotas = tenants.lockConnectionQuotas(tenantIds);
        if (quotas.isEmpty()) {
            return Arrays.asList(refusals);
        }
        Map<String, Long> connected = new HashMap<>(tenants.countConnected(quotas.keySet()));
        Set<String> holdingPlace = new HashSet<>(tenants.connectedClients(
                batch.stream()
                        .filter(c -> quotas.containsKey(c.tenant()))
                        .map(Candidate::clientId)
                        .toList(),
                quotas.keySet()));
        for (int i = 0; i < batch.size(); i++) {
            Candidate c = batch.get(i);
            Integer max = c.tenant() == null ? null : quotas.get(c.tenant());
            if (max == null || holdingPlace.contains(c.clientId())) {
                continue;
            }
            long now = connected.getOrDefault(c.tenant(), 0L);
            if (now < max) {
                connected.put(c.tenant(), now + 1);
                holdingPlace.add(c.clientId());
            } else {
                refusals[i] = new SessionApi.ConnectRefusal(
                        SessionApi.RefusalReason.QUOTA_EXCEEDED,
                        "tenant " + c.tenant() + " has " + max + " connection(s) at most, all in use");
                log.warn(
                        "CONNECT of '{}' refused: tenant {} has its {} connection(s) in use",
                        c.clientId(),
                        c.tenant(),
                        max);
                String tenant = c.tenant();
                AfterCommit.run(() -> countRefusal(tenant));
            }
        }
        return Arrays.asList(refusals);
    }

    /**
     * Counts a CONNECT refused for {@code tenant}'s connection quota. {@link #admit} counts once the batch commits;
     * a caller that answers a refusal by rolling back counts it itself.
     */
    public void countRefusal(String tenant) {
        Counter.builder("tributary.tenant.quota.refusals")
                .description("CONNECTs refused because their tenant's quota was used up")
                .tag("tenant", tenant)
                .tag("quota", "connections")
                .register(registry)
                .increment();
    }
}
