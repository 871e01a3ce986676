package io.tributary.session.tenant.quota;

import io.tributary.common.session.SubscribeApi;
import io.tributary.common.tenant.TenantTopics;
import io.tributary.common.topic.SharedFilters;
import io.tributary.session.store.AfterCommit;
import java.util.ArrayList;
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
 * Tenants' subscription quotas, applied to a SUBSCRIBE batch inside its transaction. The tenants with a quota are
 * locked (in id order, before the sessions' rows: the order CONNECT takes them in) and their clients' stored
 * subscriptions counted, so the quota holds across every transport node and session-service instance. Each filter
 * that would add a subscription beyond the quota is refused on its own (SUBACK 0x97, MQTT 3.x 0x80); a filter that
 * replaces a subscription the client holds is never refused, nor counted twice.
 */
@Component
public class SubscriptionQuotas {

    private static final Logger log = LoggerFactory.getLogger(SubscriptionQuotas.class);

    /** The tenants of a batch's requests, and the quotas of those that have one, locked. */
    public static final class Locked {

        static final Locked NONE = new Locked(new String[0], Map.of());

        private final String[] tenants;
        private final Map<String, Integer> quotas;

        Locked(String[] tenants, Map<String, Integer> quotas) {
            this.tenants = tenants;
            this.quotas = quotas;
        }
    }

    /** A subscription the batch would store: request {@code request}'s filter {@code index}. */
    public record Candidate(int request, int index) {}

    private final QuotaStore store;
    private final QuotaRefusals refusals;

    public SubscriptionQuotas(QuotaStore store, QuotaRefusals refusals) {
        this.store = store;
        this.refusals = refusals;
    }

    /**
     * Locks the subscription quotas of the batch's tenants; call before locking the sessions. A tenant's client
     * subscribes under the tenant's prefix ({@code $tenant/<id>/}), so its tenant is read from its filters; only a
     * request naming nothing but {@code $SYS} filters (never prefixed) costs a look-up of its session. A deployment
     * without tenants costs nothing.
     */
    public Locked lock(List<SubscribeApi.SubscribeRequest> requests) {
        String[] tenants = new String[requests.size()];
        Set<String> unknown = new LinkedHashSet<>();
        for (int r = 0; r < requests.size(); r++) {
            boolean sys = false;
            for (SubscribeApi.Subscription s : requests.get(r).subscriptions()) {
                String inner = s.filter() == null ? null : SharedFilters.innerFilter(s.filter());
                String tenant = inner == null ? null : TenantTopics.tenantOf(inner);
                if (tenant != null) {
                    tenants[r] = tenant;
                    break;
                }
                sys |= inner != null && inner.startsWith("$SYS");
            }
            if (tenants[r] == null && sys) {
                unknown.add(requests.get(r).clientId());
            }
        }
        if (!unknown.isEmpty()) {
            Map<String, String> found = store.tenantsOf(unknown);
            for (int r = 0; r < requests.size(); r++) {
                if (tenants[r] == null) {
                    tenants[r] = found.get(requests.get(r).clientId());
                }
            }
        }
        Set<String> ids = new LinkedHashSet<>();
        Arrays.stream(tenants).filter(Objects::nonNull).forEach(ids::add);
        if (ids.isEmpty()) {
            return Locked.NONE;
        }
        Map<String, Integer> quotas = store.lockSubscriptionQuotas(ids);
        return quotas.isEmpty() ? Locked.NONE : new Locked(tenants, quotas);
    }

    /**
     * Decides, in arrival order, which of the subscriptions the batch would store their tenants' quotas admit.
     *
     * @param candidates the valid filters of the current requests, in order
     * @return the refused ones
     */
    public Set<Candidate> refused(
            Locked locked, List<SubscribeApi.SubscribeRequest> requests, List<Candidate> candidates) {
        Set<Candidate> refused = new HashSet<>();
        if (locked.quotas.isEmpty()) {
            return refused;
        }
        List<Candidate> counted = new ArrayList<>();
        List<String> clients = new ArrayList<>();
        List<String> filters = new ArrayList<>();
        for (Candidate c : candidates) {
            if (locked.quotas.containsKey(locked.tenants[c.request()])) {
                counted.add(c);
                clients.add(requests.get(c.request()).clientId());
                filters.add(filter(requests, c));
            }
        }
        if (counted.isEmpty()) {
            return refused;
        }
        Set<String> held = new HashSet<>(store.existingSubscriptions(clients, filters));
        Map<String, Long> stored = new HashMap<>(store.countSubscriptions(locked.quotas.keySet()));
        for (Candidate c : counted) {
            String tenant = locked.tenants[c.request()];
            String clientId = requests.get(c.request()).clientId();
            String filter = filter(requests, c);
            if (held.contains(QuotaStore.key(clientId, filter))) {
                continue;
            }
            long now = stored.getOrDefault(tenant, 0L);
            int max = locked.quotas.get(tenant);
            if (now < max) {
                stored.put(tenant, now + 1);
                held.add(QuotaStore.key(clientId, filter));
            } else {
                refused.add(c);
                log.warn(
                        "SUBSCRIBE of '{}' to '{}' refused: tenant {} has its {} subscription(s) in use",
                        clientId,
                        filter,
                        tenant,
                        max);
                AfterCommit.run(() -> refusals.count(tenant, QuotaRefusals.Quota.SUBSCRIPTIONS));
            }
        }
        return refused;
    }

    private static String filter(List<SubscribeApi.SubscribeRequest> requests, Candidate c) {
        return requests.get(c.request()).subscriptions().get(c.index()).filter();
    }
}
