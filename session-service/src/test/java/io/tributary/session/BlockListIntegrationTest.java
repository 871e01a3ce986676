package io.tributary.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.kafka.DownlinkType;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.kafka.TopicNames;
import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.SessionApi;
import io.tributary.session.support.FeedReader;
import io.tributary.session.support.TestEngines;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The block list over real HTTP against real PostgreSQL and Kafka: entries by client id, user name and CIDR range,
 * the CONNECT refusal, the DISCONNECT commands an addition sends, and the IP list transport nodes fetch.
 * Ordered before {@link OutageIntegrationTest}, which stops the shared engines.
 */
@Order(3)
class BlockListIntegrationTest extends ServiceTestBase {

    /** Entries would refuse other test classes' clients: every test leaves the list empty. */
    @AfterEach
    void emptyTheBlockList() {
        jdbc.sql("DELETE FROM block_list").update();
    }

    private Response connectFrom(String clientId, String nodeId, String username, String remoteAddress)
            throws Exception {
        return post(
                SessionApi.CONNECT,
                new ConnectApi.ConnectRequest(
                        clientId, nodeId, true, 0, 5, 30, remoteAddress, username, null, null, null, null));
    }

    private static List<ConsumerRecord<byte[], byte[]>> commands(String nodeId, String clientId) {
        return FeedReader.withKey(
                FeedReader.readAll(TestEngines.kafkaBootstrap(), TopicNames.downlink(nodeId)), utf8(clientId));
    }

    private static void assertBannedDisconnect(List<ConsumerRecord<byte[], byte[]>> commands) {
        assertThat(commands).isNotEmpty();
        ConsumerRecord<byte[], byte[]> last = commands.get(commands.size() - 1);
        assertThat(DownlinkType.fromHeader(RecordHeaders.readBytes(last.headers(), RecordHeaders.DOWNLINK_TYPE)))
                .isEqualTo(DownlinkType.DISCONNECT);
        assertThat(RecordHeaders.readInt(last.headers(), RecordHeaders.REASON_CODE))
                .isEqualTo(0x98);
    }

    @Test
    void entries_by_client_id_user_name_and_range_refuse_connect_as_banned_and_close_live_connections()
            throws Exception {
        assertThat(connectFrom("bl-dev-1", "node-bl", "bl-user", "/198.51.100.7:4000")
                        .status())
                .isEqualTo(200);
        assertThat(connectFrom("bl-dev-2", "node-bl", "bl-user", "/203.0.113.9:4000")
                        .status())
                .isEqualTo(200);
        assertThat(connectFrom("bl-dev-3", "node-bl", null, "/[2001:db8:0:0:0:0:0:7]:4000")
                        .status())
                .isEqualTo(200);

        Response byUser = sendJson("POST", "/api/v1/auth/blocklist", Map.of("username", "bl-user", "reason", "test"));
        assertThat(byUser.status()).as("%s", byUser.body()).isEqualTo(201);
        assertThat(byUser.body().path("disconnected").asInt()).isEqualTo(2);
        assertBannedDisconnect(commands("node-bl", "bl-dev-1"));
        assertBannedDisconnect(commands("node-bl", "bl-dev-2"));
        Response refused = connectFrom("bl-dev-9", "node-bl", "bl-user", "/192.0.2.1:1");
        assertThat(refused.status()).isEqualTo(SessionApi.CONNECT_REFUSED_STATUS);
        assertThat(refused.body().path("reason").asString()).isEqualTo("BANNED");

        Response byRange = sendJson("POST", "/api/v1/auth/blocklist", Map.of("ip", "2001:db8::/32"));
        assertThat(byRange.status()).as("%s", byRange.body()).isEqualTo(201);
        assertThat(byRange.body().path("entry").path("ip").asString()).isEqualTo("2001:db8::/32");
        assertThat(byRange.body().path("disconnected").asInt()).isEqualTo(1);
        assertBannedDisconnect(commands("node-bl", "bl-dev-3"));
        assertThat(connectFrom("bl-dev-4", "node-bl", null, "/[2001:db8:1:0:0:0:0:1]:2")
                        .status())
                .isEqualTo(SessionApi.CONNECT_REFUSED_STATUS);
        assertThat(connectFrom("bl-dev-4", "node-bl", null, "/[2001:db9:0:0:0:0:0:1]:2")
                        .status())
                .isEqualTo(200);

        Response byClient = sendJson("POST", "/api/v1/auth/blocklist", Map.of("clientId", "bl-dev-4"));
        assertThat(byClient.body().path("disconnected").asInt()).isEqualTo(1);
        assertThat(connectFrom("bl-dev-4", "node-bl", null, "/192.0.2.1:1").status())
                .isEqualTo(SessionApi.CONNECT_REFUSED_STATUS);

        long id = byClient.body().path("entry").path("id").asLong();
        assertThat(send("DELETE", "/api/v1/auth/blocklist/" + id).status()).isEqualTo(204);
        assertThat(connectFrom("bl-dev-4", "node-bl", null, "/192.0.2.1:1").status())
                .isEqualTo(200);
        assertThat(send("DELETE", "/api/v1/auth/blocklist/" + id).status()).isEqualTo(404);
        JsonNode page = get("/api/v1/auth/blocklist?size=1000").body();
        assertThat(page.path("total").asLong()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void bad_entries_are_400_duplicates_409_and_the_api_needs_a_token() throws Exception {
        assertThat(sendJson("POST", "/api/v1/auth/blocklist", Map.of()).status())
                .isEqualTo(400);
        assertThat(sendJson("POST", "/api/v1/auth/blocklist", Map.of("clientId", "a", "username", "b"))
                        .status())
                .isEqualTo(400);
        Response bad = sendJson("POST", "/api/v1/auth/blocklist", Map.of("ip", "not-an-address"));
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.body().path("error").asString()).contains("ip");
        assertThat(sendJson("POST", "/api/v1/auth/blocklist", Map.of("ip", "10.0.0.0/33"))
                        .status())
                .isEqualTo(400);
        assertThat(sendJson("POST", "/api/v1/auth/blocklist", Map.of("ip", "198.19.8.7/15"))
                        .status())
                .isEqualTo(201);
        assertThat(sendJson("POST", "/api/v1/auth/blocklist", Map.of("ip", "198.18.0.0/15"))
                        .status())
                .as("the same range once its host bits are cleared")
                .isEqualTo(409);
        Response anonymous = exchange(
                HttpRequest.newBuilder(uri("/api/v1/auth/blocklist")).GET().build());
        assertThat(anonymous.status()).isEqualTo(401);
    }

    @Test
    void transport_nodes_get_the_ip_entries_and_nothing_while_they_are_unchanged() throws Exception {
        JsonNode first = get(SessionApi.BLOCKED_IPS).body();
        String version = first.path("version").asString();
        JsonNode same = get(SessionApi.BLOCKED_IPS + "?version=" + version).body();
        assertThat(same.path("ranges").isNull()).as("%s", same).isTrue();
        assertThat(sendJson("POST", "/api/v1/auth/blocklist", Map.of("ip", "192.0.2.128/25"))
                        .status())
                .isEqualTo(201);
        JsonNode changed = get(SessionApi.BLOCKED_IPS + "?version=" + version).body();
        assertThat(changed.path("version").asString()).isNotEqualTo(version);
        assertThat(changed.path("ranges").toString()).contains("192.0.2.128/25");
    }
}
