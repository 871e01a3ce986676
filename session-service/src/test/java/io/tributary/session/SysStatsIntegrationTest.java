package io.tributary.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.session.DisconnectApi;
import io.tributary.common.session.SessionApi;
import io.tributary.common.sys.SysTopics;
import io.tributary.session.sys.ClusterStats;
import io.tributary.sessionqueue.SessionQueueKeys;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The cluster-wide $SYS figures read from PostgreSQL, the once-per-interval claim shared by all instances, and the
 * inbound QoS 2 packet ids of a session deleted with its queue keys.
 */
@Order(3) // before OutageIntegrationTest stops the shared engines
class SysStatsIntegrationTest extends ServiceTestBase {

    @Autowired
    private ClusterStats stats;

    @Test
    void cluster_figures_count_sessions_and_sum_the_live_nodes_published_counters() throws Exception {
        String online = "sys-on-" + System.nanoTime();
        String offline = "sys-off-" + System.nanoTime();
        Map<String, String> before = stats.read();
        connect(online, "sys-node-a", true, NEVER);
        long epoch = connect(offline, "sys-node-a", true, NEVER).epoch();
        assertThat(post(SessionApi.DISCONNECT, new DisconnectApi.DisconnectRequest(offline, epoch, "sys-node-a", 600))
                        .status())
                .isEqualTo(200);

        jdbc.sql("INSERT INTO transport_nodes (node_id, incarnation, first_seen, last_seen) VALUES "
                        + "('sys-live', 'i1', now(), now()), ('sys-dead', 'i1', now(), now())")
                .update();
        jdbc.sql("UPDATE transport_nodes SET dead_at = now() WHERE node_id = 'sys-dead'")
                .update();
        retained(SysTopics.node("sys-live", SysTopics.MESSAGES_RECEIVED), "40");
        retained(SysTopics.node("sys-dead", SysTopics.MESSAGES_RECEIVED), "1000");

        Map<String, String> after = stats.read();
        assertThat(delta(before, after, SysTopics.CLIENTS_CONNECTED)).isEqualTo(1);
        assertThat(delta(before, after, SysTopics.CLIENTS_DISCONNECTED)).isEqualTo(1);
        assertThat(delta(before, after, SysTopics.CLIENTS_TOTAL)).isEqualTo(2);
        assertThat(delta(before, after, SysTopics.NODES_COUNT)).isEqualTo(1);
        assertThat(delta(before, after, SysTopics.MESSAGES_RECEIVED))
                .as("dead nodes' figures left out")
                .isEqualTo(40);
        assertThat(after.get(SysTopics.broker(SysTopics.VERSION))).startsWith("tributary ");
    }

    @Test
    void one_claim_per_interval() {
        Duration interval = Duration.ofHours(1);
        jdbc.sql("UPDATE sys_publication SET published_at = '-infinity'").update();
        assertThat(stats.claim(interval)).isTrue();
        assertThat(stats.claim(interval)).as("another instance, same interval").isFalse();
        // An interval later: the last claim is moved back rather than waited for.
        jdbc.sql("UPDATE sys_publication SET published_at = now() - interval '2 hours'")
                .update();
        assertThat(stats.claim(interval)).as("an interval later").isTrue();
    }

    @Test
    void inbound_qos2_packet_ids_go_with_the_session() throws Exception {
        String clientId = "sys-q2-" + System.nanoTime();
        connect(clientId, "sys-node-a", true, NEVER);
        redis.sync().sadd(SessionQueueKeys.inboundQos2(clientId), "7");
        connect(clientId, "sys-node-a", true, NEVER); // clean start: the old session and its keys go
        assertThat(redis.sync().exists(SessionQueueKeys.inboundQos2(clientId))).isZero();
    }

    private void retained(String topic, String value) {
        jdbc.sql("""
                INSERT INTO retained_messages (topic, payload, qos, headers, kafka_partition, kafka_offset)
                VALUES (:t, :p, 0, :h, 0, 0)
                ON CONFLICT (topic) DO UPDATE SET payload = EXCLUDED.payload""")
                .param("t", topic)
                .param("p", utf8(value))
                .param("h", new byte[0])
                .update();
    }

    private static long delta(Map<String, String> before, Map<String, String> after, String statistic) {
        String topic = SysTopics.broker(statistic);
        return Long.parseLong(after.get(topic)) - Long.parseLong(before.get(topic));
    }
}
