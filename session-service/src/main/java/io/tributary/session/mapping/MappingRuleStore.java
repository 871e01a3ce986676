package io.tributary.session.mapping;

import io.tributary.session.store.Timestamps;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code mapping_rules} table. */
@Repository
public class MappingRuleStore {

    private static final String COLUMNS = "id, filter, kafka_topic, key_source, created_at";

    private final JdbcClient jdbc;

    public MappingRuleStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Inserts a rule; one with the same filter and Kafka topic fails with a DuplicateKeyException. */
    public long insert(String filter, String kafkaTopic, String keySource, Instant now) {
        return jdbc.sql("INSERT INTO mapping_rules (filter, kafka_topic, key_source, created_at)"
                        + " VALUES (:filter, :topic, :key, :now) RETURNING id")
                .param("filter", filter)
                .param("topic", kafkaTopic)
                .param("key", keySource)
                .param("now", Timestamps.toDb(now))
                .query(Long.class)
                .single();
    }

    public Optional<MappingRuleView> find(long id) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM mapping_rules WHERE id = :id")
                .param("id", id)
                .query(MappingRuleStore::map)
                .optional();
    }

    /** Every rule, in id order: rules are few (each costs a match per PUBLISH on every node). */
    public List<MappingRuleView> all() {
        return jdbc.sql("SELECT " + COLUMNS + " FROM mapping_rules ORDER BY id")
                .query(MappingRuleStore::map)
                .list();
    }

    public long count() {
        return jdbc.sql("SELECT count(*) FROM mapping_rules").query(Long.class).single();
    }

    public boolean delete(long id) {
        return jdbc.sql("DELETE FROM mapping_rules WHERE id = :id")
                        .param("id", id)
                        .update()
                == 1;
    }

    private static MappingRuleView map(ResultSet rs, int row) throws SQLException {
        return new MappingRuleView(
                rs.getLong("id"),
                rs.getString("filter"),
                rs.getString("kafka_topic"),
                rs.getString("key_source"),
                Timestamps.read(rs, "created_at"));
    }
}
