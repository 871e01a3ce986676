package io.tributary.session.bridge;

import io.tributary.session.store.Timestamps;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code kafka_to_mqtt_rules} table. */
@Repository
public class BridgeRuleStore {

    private static final String COLUMNS = "id, kafka_topic, mqtt_topic, qos, retain, created_at";

    private final JdbcClient jdbc;

    public BridgeRuleStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** A rule with the same Kafka and MQTT topic fails with a DuplicateKeyException. */
    public long insert(String kafkaTopic, String mqttTopic, Integer qos, Boolean retain, Instant now) {
        return jdbc.sql("INSERT INTO kafka_to_mqtt_rules (kafka_topic, mqtt_topic, qos, retain, created_at)"
                        + " VALUES (:kafkaTopic, :mqttTopic, :qos, :retain, :now) RETURNING id")
                .param("kafkaTopic", kafkaTopic)
                .param("mqttTopic", mqttTopic)
                .param("qos", qos)
                .param("retain", retain)
                .param("now", Timestamps.toDb(now))
                .query(Long.class)
                .single();
    }

    public Optional<BridgeRule> find(long id) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM kafka_to_mqtt_rules WHERE id = :id")
                .param("id", id)
                .query(BridgeRuleStore::map)
                .optional();
    }

    public List<BridgeRule> all() {
        return jdbc.sql("SELECT " + COLUMNS + " FROM kafka_to_mqtt_rules ORDER BY id")
                .query(BridgeRuleStore::map)
                .list();
    }

    public boolean delete(long id) {
        return jdbc.sql("DELETE FROM kafka_to_mqtt_rules WHERE id = :id")
                        .param("id", id)
                        .update()
                == 1;
    }

    private static BridgeRule map(ResultSet rs, int row) throws SQLException {
        int qos = rs.getInt("qos");
        Integer qosOrNull = rs.wasNull() ? null : qos;
        boolean retain = rs.getBoolean("retain");
        Boolean retainOrNull = rs.wasNull() ? null : retain;
        return new BridgeRule(
                rs.getLong("id"),
                rs.getString("kafka_topic"),
                rs.getString("mqtt_topic"),
                qosOrNull,
                retainOrNull,
                Timestamps.read(rs, "created_at"));
    }
}
