package io.tributary.session.metering;

import io.tributary.common.metering.UsageDelta;
import io.tributary.common.metering.UsageTotals;
import io.tributary.common.tenant.TenantTopics;
import io.tributary.session.store.Timestamps;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code tenant_usage} and {@code metering_sources} tables. */
@Repository
public class UsageStore {

    private static final String COLUMNS =
            "tenant_id, hour, messages_in, bytes_in, messages_out, bytes_out," + " connection_seconds, stored_bytes";

    /**
     * One statement: the delta's number is recorded for its node incarnation and tenant only when it is higher than
     * the last one added, and only then are its counts added to the hour's row.
     */
    private static final String APPLY = "WITH source AS ("
            + " INSERT INTO metering_sources (node_id, incarnation, tenant_id, last_sequence, updated_at)"
            + " VALUES (:node, :incarnation, :tenant, :sequence, now())"
            + " ON CONFLICT (node_id, incarnation, tenant_id) DO UPDATE"
            + " SET last_sequence = EXCLUDED.last_sequence, updated_at = EXCLUDED.updated_at"
            + " WHERE metering_sources.last_sequence < EXCLUDED.last_sequence"
            + " RETURNING 1)"
            + " INSERT INTO tenant_usage (tenant_id, hour, messages_in, bytes_in, messages_out, bytes_out,"
            + " connection_millis, updated_at)"
            + " SELECT :tenant, :hour, :messagesIn, :bytesIn, :messagesOut, :bytesOut, :connectionMillis, now()"
            + " FROM source"
            + " ON CONFLICT (tenant_id, hour) DO UPDATE SET"
            + " messages_in = tenant_usage.messages_in + EXCLUDED.messages_in,"
            + " bytes_in = tenant_usage.bytes_in + EXCLUDED.bytes_in,"
            + " messages_out = tenant_usage.messages_out + EXCLUDED.messages_out,"
            + " bytes_out = tenant_usage.bytes_out + EXCLUDED.bytes_out,"
            + " connection_millis = tenant_usage.connection_millis + EXCLUDED.connection_millis,"
            + " updated_at = EXCLUDED.updated_at";

    private final JdbcClient jdbc;

    public UsageStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Adds a delta unless it was added before; true when it was added now. Call inside a transaction. */
    public boolean apply(UsageDelta delta) {
        return jdbc.sql(APPLY)
                        .param("node", delta.node())
                        .param("incarnation", delta.incarnation())
                        .param("tenant", delta.tenant())
                        .param("sequence", delta.sequence())
                        .param("hour", Timestamps.toDb(delta.hour()))
                        .param("messagesIn", delta.messagesIn())
                        .param("bytesIn", delta.bytesIn())
                        .param("messagesOut", delta.messagesOut())
                        .param("bytesOut", delta.bytesOut())
                        .param("connectionMillis", delta.connectionMillis())
                        .update()
                == 1;
    }

    /**
     * Samples every tenant's stored bytes into {@code hour}: the payload bytes of the retained messages under its
     * {@code $tenant/<id>/} topics (read from the sizes PostgreSQL keeps, no payload is read). Tenants that store
     * nothing any more get 0 in the rows the hour already has.
     */
    public void sampleStoredBytes(Instant hour) {
        String root = TenantTopics.ROOT + "/";
        jdbc.sql("WITH stored AS ("
                        + " SELECT split_part(topic, '/', 2) AS tenant_id, sum(octet_length(payload)) AS bytes"
                        + " FROM retained_messages WHERE topic LIKE :pattern GROUP BY 1),"
                        + " upserted AS ("
                        + " INSERT INTO tenant_usage (tenant_id, hour, stored_bytes, updated_at)"
                        + " SELECT tenant_id, :hour, bytes, now() FROM stored WHERE tenant_id <> ''"
                        + " ON CONFLICT (tenant_id, hour) DO UPDATE"
                        + " SET stored_bytes = EXCLUDED.stored_bytes, updated_at = EXCLUDED.updated_at"
                        + " WHERE tenant_usage.stored_bytes <> EXCLUDED.stored_bytes"
                        + " RETURNING tenant_id)"
                        + " UPDATE tenant_usage SET stored_bytes = 0, updated_at = now()"
                        + " WHERE hour = :hour AND stored_bytes <> 0"
                        + " AND tenant_id NOT IN (SELECT tenant_id FROM stored)")
                .param("pattern", likePrefix(root))
                .param("hour", Timestamps.toDb(hour))
                .update();
    }

    private static String likePrefix(String prefix) {
        return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
    }

    /** One tenant-hour's totals, if it has a row. */
    public Optional<UsageTotals> totals(String tenant, Instant hour) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM tenant_usage WHERE tenant_id = :tenant AND hour = :hour")
                .param("tenant", tenant)
                .param("hour", Timestamps.toDb(hour))
                .query(UsageStore::totalsRow)
                .optional();
    }

    /** Every tenant's totals of {@code hour}. */
    public List<UsageTotals> totalsOfHour(Instant hour) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM tenant_usage WHERE hour = :hour ORDER BY tenant_id")
                .param("hour", Timestamps.toDb(hour))
                .query(UsageStore::totalsRow)
                .list();
    }

    /** The tenant's hours in {@code [from, to)}, oldest first. */
    public List<HourlyUsage> hours(String tenant, Instant from, Instant to) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM tenant_usage"
                        + " WHERE tenant_id = :tenant AND hour >= :from AND hour < :to ORDER BY hour")
                .param("tenant", tenant)
                .param("from", Timestamps.toDb(from))
                .param("to", Timestamps.toDb(to))
                .query((rs, n) -> {
                    UsageTotals t = totalsRow(rs, n);
                    return new HourlyUsage(
                            t.hour(),
                            t.messagesIn(),
                            t.bytesIn(),
                            t.messagesOut(),
                            t.bytesOut(),
                            t.connectionSeconds(),
                            t.storedBytes());
                })
                .list();
    }

    /** Forgets the bookkeeping of node incarnations that sent nothing since {@code before}. */
    public int purgeSources(Instant before) {
        return jdbc.sql("DELETE FROM metering_sources WHERE updated_at < :before")
                .param("before", Timestamps.toDb(before))
                .update();
    }

    private static UsageTotals totalsRow(ResultSet rs, int n) throws SQLException {
        return new UsageTotals(
                rs.getString("tenant_id"),
                Timestamps.read(rs, "hour"),
                rs.getLong("messages_in"),
                rs.getLong("bytes_in"),
                rs.getLong("messages_out"),
                rs.getLong("bytes_out"),
                rs.getLong("connection_seconds"),
                rs.getLong("stored_bytes"));
    }
}
