package io.tributary.session.retained;

import io.tributary.common.kafka.TopicNames;
import io.tributary.session.store.Timestamps;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

/** The {@code retained_messages} table: one row per topic, the last retained PUBLISH on it. */
@Repository
public class RetainedStore {

    private static final String COLUMNS = "topic, payload, qos, headers, expires_at, updated_at";
    private static final RowMapper<StoredRetained> ROW = RetainedStore::map;
    /** Rows fetched per round trip while matching, so a broad filter does not load every candidate at once. */
    private static final int FETCH_SIZE = 500;

    /** The messages one filter matched; {@code capped} when more matched than were asked for. */
    public record Matches(List<StoredRetained> messages, boolean capped) {}

    private final JdbcClient jdbc;
    private final NamedParameterJdbcTemplate cursor;

    public RetainedStore(JdbcClient jdbc, DataSource dataSource) {
        this.jdbc = jdbc;
        JdbcTemplate template = new JdbcTemplate(dataSource);
        template.setFetchSize(FETCH_SIZE);
        this.cursor = new NamedParameterJdbcTemplate(template);
    }

    /**
     * Where a row is written from: a Kafka record of {@code kafkaTopic}. A row from the same topic is replaced only by
     * a record at the same or a later offset of its partition (a replay after a consumer restart does not go back);
     * a row from another topic only when {@code kafkaTopic} is {@link TopicNames#RETAINED} (migration V21).
     */
    public record Source(String kafkaTopic, int partition, long offset) {

        boolean overridesOtherTopics() {
            return TopicNames.RETAINED.equals(kafkaTopic);
        }
    }

    /** The row may be replaced or deleted by {@code :kafkaTopic/:partition/:offset} (see {@link Source}). */
    private static final String NEWER = """
            ((retained_messages.kafka_topic = :kafkaTopic
                    AND (retained_messages.kafka_partition <> :partition OR retained_messages.kafka_offset <= :offset))
                OR (retained_messages.kafka_topic <> :kafkaTopic AND :overrides))""";

    /** Stores the retained message of a topic, unless the stored one is newer (see {@link Source}). */
    public void upsert(
            String topic, byte[] payload, int qos, byte[] headers, Instant expiresAt, Instant now, Source source) {
        jdbc.sql("""
                INSERT INTO retained_messages (topic, payload, qos, headers, expires_at, updated_at,
                    kafka_topic, kafka_partition, kafka_offset)
                VALUES (:topic, :payload, :qos, :headers, :expiresAt, :now, :kafkaTopic, :partition, :offset)
                ON CONFLICT (topic) DO UPDATE SET payload = EXCLUDED.payload, qos = EXCLUDED.qos,
                    headers = EXCLUDED.headers, expires_at = EXCLUDED.expires_at, updated_at = EXCLUDED.updated_at,
                    kafka_topic = EXCLUDED.kafka_topic, kafka_partition = EXCLUDED.kafka_partition,
                    kafka_offset = EXCLUDED.kafka_offset
                WHERE """ + NEWER)
                .param("topic", topic)
                .param("payload", payload)
                .param("qos", (short) qos)
                .param("headers", headers)
                .param("expiresAt", expiresAt == null ? null : Timestamps.toDb(expiresAt))
                .param("now", Timestamps.toDb(now))
                .param("kafkaTopic", source.kafkaTopic())
                .param("partition", source.partition())
                .param("offset", source.offset())
                .param("overrides", source.overridesOtherTopics())
                .update();
    }

    /** Removes the topic's retained message unless the stored one is newer (see {@link Source}). */
    public boolean deleteFromRecord(String topic, Source source) {
        return jdbc.sql("DELETE FROM retained_messages WHERE topic = :topic AND " + NEWER)
                        .param("topic", topic)
                        .param("kafkaTopic", source.kafkaTopic())
                        .param("partition", source.partition())
                        .param("offset", source.offset())
                        .param("overrides", source.overridesOtherTopics())
                        .update()
                > 0;
    }

    /** Admin removal. @return true when there was one */
    public boolean delete(String topic) {
        return jdbc.sql("DELETE FROM retained_messages WHERE topic = :topic")
                        .param("topic", topic)
                        .update()
                > 0;
    }

    /** Unexpired retained messages matching {@code filter}, ordered by topic, at most {@code limit}. */
    @Transactional(readOnly = true)
    public Matches matching(String filter, Instant now, int limit) {
        RetainedQuery query = RetainedQuery.of(filter);
        MapSqlParameterSource params = new MapSqlParameterSource("now", Timestamps.toDb(now));
        String where;
        if (query.exact()) {
            where = "topic = :topic";
            params.addValue("topic", filter);
        } else {
            where = "topic LIKE :pattern ESCAPE '\\'";
            params.addValue("pattern", query.likePattern());
        }
        String sql = "SELECT " + COLUMNS + " FROM retained_messages WHERE " + where
                + " AND (expires_at IS NULL OR expires_at > :now) ORDER BY topic";
        return cursor.query(sql, params, rs -> {
            List<StoredRetained> out = new ArrayList<>();
            int row = 0;
            while (rs.next()) {
                if (!query.matches(rs.getString("topic"))) {
                    continue;
                }
                if (out.size() == limit) {
                    return new Matches(out, true);
                }
                out.add(map(rs, row++));
            }
            return new Matches(out, false);
        });
    }

    /**
     * The unexpired retained messages of exact topics, in one query: a batch of SUBSCRIBEs to exact filters (a fleet
     * subscribing to its own command topics) costs one round trip, not one per filter. One statement: in the
     * caller's transaction if it has one, else on its own (no transaction of its own, whose commit would be a second
     * round trip).
     */
    public java.util.Map<String, StoredRetained> exact(java.util.Collection<String> topics, Instant now) {
        if (topics.isEmpty()) {
            return java.util.Map.of();
        }
        java.util.Map<String, StoredRetained> out = new java.util.HashMap<>();
        jdbc.sql("SELECT " + COLUMNS + " FROM retained_messages WHERE topic = ANY(:topics)"
                        + " AND (expires_at IS NULL OR expires_at > :now)")
                .param("topics", topics.toArray(String[]::new))
                .param("now", Timestamps.toDb(now))
                .query(ROW)
                .list()
                .forEach(m -> out.put(m.topic(), m));
        return out;
    }

    /** A page of retained messages whose topic starts with {@code prefix} (may be empty), ordered by topic. */
    public List<StoredRetained> page(String prefix, int page, int size) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM retained_messages WHERE topic LIKE :pattern ESCAPE '\\'"
                        + " ORDER BY topic LIMIT :limit OFFSET :offset")
                .param("pattern", RetainedQuery.escapeLike(prefix) + "%")
                .param("limit", size)
                .param("offset", (long) page * size)
                .query(ROW)
                .list();
    }

    /**
     * Up to {@code limit} retained messages whose topic starts with {@code prefix} and sorts after {@code after}
     * (null: from the start), in byte order: one range of the {@code COLLATE "C"} topic index (migration V8).
     */
    public List<StoredRetained> pageAfter(String prefix, String after, int limit) {
        String sql = "SELECT " + COLUMNS + " FROM retained_messages"
                + " WHERE topic COLLATE \"C\" LIKE :pattern ESCAPE '\\'"
                + (after == null ? "" : " AND topic COLLATE \"C\" > :after")
                + " ORDER BY topic COLLATE \"C\" LIMIT :limit";
        JdbcClient.StatementSpec spec = jdbc.sql(sql)
                .param("pattern", RetainedQuery.escapeLike(prefix) + "%")
                .param("limit", limit);
        if (after != null) {
            spec = spec.param("after", after);
        }
        return spec.query(ROW).list();
    }

    public long count(String prefix) {
        return jdbc.sql("SELECT count(*) FROM retained_messages WHERE topic LIKE :pattern ESCAPE '\\'")
                .param("pattern", RetainedQuery.escapeLike(prefix) + "%")
                .query(Long.class)
                .single();
    }

    /** Deletes retained messages whose expiry passed. @return how many */
    public int purgeExpired(Instant now) {
        return jdbc.sql("DELETE FROM retained_messages WHERE expires_at <= :now")
                .param("now", Timestamps.toDb(now))
                .update();
    }

    private static StoredRetained map(ResultSet rs, int rowNum) throws SQLException {
        return new StoredRetained(
                rs.getString("topic"),
                rs.getBytes("payload"),
                rs.getShort("qos"),
                RetainedHeaders.decode(rs.getBytes("headers")),
                Timestamps.read(rs, "expires_at"),
                Timestamps.read(rs, "updated_at"));
    }
}
