package io.tributary.session.tenant.quota;

import io.tributary.common.tenant.TenantTopics;
import io.tributary.session.store.Timestamps;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Tenants' retained-message quotas, applied exactly by the retained consumer to a batch of retained records inside
 * the batch's transaction. The batch's tenants with a quota are locked with a transaction-scoped advisory lock each
 * (in id order, so two session-service instances storing records of one tenant from different partitions take turns
 * and never wait crosswise), then their unexpired retained messages are counted: a retained message on a topic that
 * has none yet is stored only while the tenant holds fewer than its quota. Replacing a topic's message and deleting
 * one always pass. The advisory lock leaves the tenant's row alone, so CONNECTs and SUBSCRIBEs (which lock it) never
 * wait for retained messages.
 *
 * <p>Counts stop at quota + 1 (one range of the {@code COLLATE "C"} topic index, V8), so a batch costs at most that
 * many index entries per tenant; a tenant found above its quota (the quota was lowered) refuses every new topic for
 * the rest of the batch, even after deletions in it, and is counted again with the next.
 */
@Component
public class RetainedQuotas {

    private static final Logger log = LoggerFactory.getLogger(RetainedQuotas.class);

    /** The quotas of one batch, in its transaction; used by the consumer thread only. */
    public final class Batch {

        private final Map<String, Integer> quotas;
        /** Unexpired retained messages per tenant with a quota, exact unless above its quota. */
        private final Map<String, Long> held;
        /** The batch's topics of tenants with a quota that hold an unexpired retained message now. */
        private final Set<String> present;
        /** Refused topics per tenant, for the line and the metric after the batch. */
        private final Map<String, List<String>> refused = new TreeMap<>();

        private Batch(Map<String, Integer> quotas, Map<String, Long> held, Set<String> present) {
            this.quotas = quotas;
            this.held = held;
            this.present = present;
        }

        /**
         * Whether a retained message with a payload on {@code topic} may be stored: always for a topic of no tenant
         * or of one without a quota, and for a topic that holds one already (a replacement); a new topic only while
         * its tenant holds fewer than its quota, and then it counts. A message that has expired already ({@code
         * expired}) is stored (it replaces the topic's message, and is never delivered) but counts as nothing, as
         * {@link #begin} counts the stored ones: the topic it replaces no longer holds an unexpired message.
         */
        public boolean admitStore(String topic, boolean expired) {
            String tenant = TenantTopics.tenantOf(topic);
            Integer quota = tenant == null ? null : quotas.get(tenant);
            if (quota == null) {
                return true;
            }
            if (expired) {
                deleted(topic, true);
                return true;
            }
            if (present.contains(topic)) {
                return true;
            }
            long count = held.get(tenant);
            if (count >= quota) {
                refused.computeIfAbsent(tenant, t -> new ArrayList<>()).add(topic);
                return false;
            }
            held.put(tenant, count + 1);
            present.add(topic);
            return true;
        }

        /** A retained message deleted from a record ({@code deleted}: a row was removed). */
        public void deleted(String topic, boolean deleted) {
            String tenant = TenantTopics.tenantOf(topic);
            Integer quota = tenant == null ? null : quotas.get(tenant);
            if (quota == null || !deleted || !present.remove(topic)) {
                return;
            }
            long count = held.get(tenant);
            if (count <= quota) { // above: counted up to quota + 1 only, so not known exactly
                held.put(tenant, count - 1);
            }
        }

        /** After the batch committed: one line per tenant that refused any, and the metric. */
        public void report() {
            refused.forEach((tenant, topics) -> {
                for (int i = 0; i < topics.size(); i++) {
                    refusals.count(tenant, QuotaRefusals.Quota.RETAINED);
                }
                log.warn(
                        "Tenant {} holds its quota of {} retained messages: not storing a retained message for new"
                                + " topic '{}'{}",
                        tenant,
                        quotas.get(tenant),
                        TenantTopics.visible(topics.get(0)),
                        topics.size() == 1 ? "" : " (and " + (topics.size() - 1) + " more in this batch)");
            });
        }
    }

    private final JdbcClient jdbc;
    private final QuotaRefusals refusals;

    public RetainedQuotas(JdbcClient jdbc, QuotaRefusals refusals) {
        this.jdbc = jdbc;
        this.refusals = refusals;
    }

    /**
     * Starts a batch inside its transaction: looks up the quotas of the tenants of {@code topics} (the batch's
     * retained topics), locks those with one and counts what they hold. A batch with no tenant's topic costs nothing;
     * one whose tenants have no quota, one query.
     */
    public Batch begin(Collection<String> topics, Instant now) {
        Set<String> tenants = new HashSet<>();
        for (String topic : topics) {
            String tenant = TenantTopics.tenantOf(topic);
            if (tenant != null) {
                tenants.add(tenant);
            }
        }
        if (tenants.isEmpty()) {
            return new Batch(Map.of(), Map.of(), Set.of());
        }
        Map<String, Integer> quotas = new TreeMap<>();
        jdbc.sql("SELECT id, max_retained FROM tenants WHERE id = ANY(:ids) AND max_retained IS NOT NULL")
                .param("ids", tenants.toArray(String[]::new))
                .query(rs -> {
                    quotas.put(rs.getString(1), rs.getInt(2));
                });
        if (quotas.isEmpty()) {
            return new Batch(Map.of(), Map.of(), Set.of());
        }
        String[] ids = quotas.keySet().toArray(String[]::new); // sorted: the order every instance locks in
        Integer[] limits = quotas.values().toArray(Integer[]::new);
        // unnest yields the array in order, and each row's lock is taken before the next row is produced.
        jdbc.sql("SELECT count(pg_advisory_xact_lock(hashtextextended('tributary.retained-quota/' || id, 0)))"
                        + " FROM unnest(CAST(:ids AS text[])) AS u(id)")
                .param("ids", ids)
                .query(Long.class)
                .single();
        Map<String, Long> held = new HashMap<>();
        jdbc.sql("""
                        SELECT u.id, (SELECT count(*) FROM (
                            SELECT 1 FROM retained_messages r
                            WHERE r.topic COLLATE "C" >= '$tenant/' || u.id || '/'
                                AND r.topic COLLATE "C" < '$tenant/' || u.id || '0'
                                AND (r.expires_at IS NULL OR r.expires_at > :now)
                            LIMIT u.quota + 1) held)
                        FROM unnest(CAST(:ids AS text[]), CAST(:quotas AS integer[])) AS u(id, quota)""")
                .param("ids", ids)
                .param("quotas", limits)
                .param("now", Timestamps.toDb(now))
                .query(rs -> {
                    held.put(rs.getString(1), rs.getLong(2));
                });
        List<String> theirs = new ArrayList<>();
        for (String topic : topics) {
            String tenant = TenantTopics.tenantOf(topic);
            if (tenant != null && quotas.containsKey(tenant)) {
                theirs.add(topic);
            }
        }
        Set<String> present = new HashSet<>(jdbc.sql("SELECT topic FROM retained_messages WHERE topic = ANY(:topics)"
                        + " AND (expires_at IS NULL OR expires_at > :now)")
                .param("topics", theirs.toArray(String[]::new))
                .param("now", Timestamps.toDb(now))
                .query(String.class)
                .list());
        return new Batch(quotas, held, present);
    }
}
