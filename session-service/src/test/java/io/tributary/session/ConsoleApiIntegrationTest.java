package io.tributary.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.kafka.TopicNames;
import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.DisconnectApi;
import io.tributary.common.session.LivenessApi;
import io.tributary.common.session.SessionApi;
import io.tributary.common.session.SubscribeApi;
import io.tributary.common.sys.DataPathHop;
import io.tributary.common.sys.SysTopics;
import io.tributary.session.retained.RetainedHeaders;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The endpoints behind the admin console (search, overview, Kafka) and the console's static files. */
@Order(3)
class ConsoleApiIntegrationTest extends ServiceTestBase {

    private long connectAs(String clientId, String nodeId, String username) throws Exception {
        Response r = post(
                SessionApi.CONNECT,
                new ConnectApi.ConnectRequest(clientId, nodeId, false, 300, 5, 30, "10.1.2.3:4567", username));
        assertThat(r.status()).as("connect %s: %s", clientId, r.body()).isEqualTo(200);
        return r.body().get("epoch").asLong();
    }

    /** Stores a retained message as the retained consumer would (no headers); removed again by {@link #unretain}. */
    private void retain(String topic, String payload) {
        jdbc.sql("INSERT INTO retained_messages (topic, payload, qos, headers, kafka_partition, kafka_offset)"
                        + " VALUES (:topic, :payload, 0, :headers, 0, 0)")
                .param("topic", topic)
                .param("payload", utf8(payload))
                .param("headers", RetainedHeaders.encode(List.of()))
                .update();
    }

    private void unretain(List<String> topics) {
        jdbc.sql("DELETE FROM retained_messages WHERE topic IN (:topics)")
                .param("topics", topics)
                .update();
    }

    private static List<String> clientIds(JsonNode results) {
        return results.get("items")
                .valueStream()
                .map(n -> n.get("clientId").asString())
                .toList();
    }

    private static String q(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    @Test
    void sessionSearchPagesByKeyAndFiltersByPrefixUserAndNode() throws Exception {
        connectAs("con/a-1", "node-con-1", "con-alice");
        connectAs("con/a-2", "node-con-1", "con-bob");
        long a3 = connectAs("con/a_3", "node-con-1", "con-alice");
        connectAs("con/b-1", "node-con-2", "con-bob");
        post(SessionApi.DISCONNECT, new DisconnectApi.DisconnectRequest("con/a_3", a3, "node-con-1", 300));

        JsonNode first = get("/api/v1/search/sessions?clientIdPrefix=" + q("con/a-") + "&limit=1")
                .body();
        assertThat(clientIds(first)).containsExactly("con/a-1");
        assertThat(first.get("next").asString()).isEqualTo("con/a-1");
        JsonNode second = get("/api/v1/search/sessions?clientIdPrefix=" + q("con/a-") + "&limit=1&after="
                        + q("con/a-1"))
                .body();
        assertThat(clientIds(second)).containsExactly("con/a-2");
        // the last page of this prefix: a probe one row past the limit finds nothing more
        assertThat(second.get("next").isNull()).isTrue();

        // '_' and '%' are literal in a prefix, not LIKE wildcards
        assertThat(clientIds(get("/api/v1/search/sessions?clientIdPrefix=" + q("con/a_"))
                        .body()))
                .containsExactly("con/a_3");
        assertThat(clientIds(get("/api/v1/search/sessions?clientIdPrefix=" + q("con/%"))
                        .body()))
                .isEmpty();

        assertThat(clientIds(get("/api/v1/search/sessions?username=con-alice").body()))
                .containsExactly("con/a-1", "con/a_3");
        assertThat(clientIds(get("/api/v1/search/sessions?nodeId=node-con-2").body()))
                .containsExactly("con/b-1");
        assertThat(clientIds(get("/api/v1/search/sessions?clientIdPrefix=con/&connected=false")
                        .body()))
                .containsExactly("con/a_3");
        // byte order: '-' (0x2D) before '_' (0x5F), whatever the database collation
        assertThat(clientIds(get("/api/v1/search/sessions?clientIdPrefix=con/").body()))
                .containsExactly("con/a-1", "con/a-2", "con/a_3", "con/b-1");
        // a client id with '/' is one percent-encoded path segment for the session endpoints the console calls
        Response details = get("/api/v1/sessions/" + q("con/a-1"));
        assertThat(details.status()).as("%s", details.body()).isEqualTo(200);
        assertThat(details.body().get("session").get("clientId").asString()).isEqualTo("con/a-1");
        assertThat(get("/api/v1/sessions/" + q("con/a-1") + "/subscriptions").status())
                .isEqualTo(200);
        JsonNode item = get("/api/v1/search/sessions?clientIdPrefix=con/b")
                .body()
                .get("items")
                .get(0);
        assertThat(item.get("remoteAddress").asString()).isEqualTo("10.1.2.3:4567");
        assertThat(item.get("protocolVersion").asInt()).isEqualTo(5);

        Response tooMany = get("/api/v1/search/sessions?limit=1001");
        assertThat(tooMany.status()).isEqualTo(400);
        assertThat(tooMany.body().get("error").asString()).contains("limit");
    }

    @Test
    void subscriptionSearchFindsWhoHoldsAFilterAndSharedGroupMembers() throws Exception {
        long s1 = connectAs("con-sub-1", "node-con-1", null);
        long s2 = connectAs("con-sub-2", "node-con-1", null);
        post(
                SessionApi.SUBSCRIBE,
                new SubscribeApi.SubscribeRequest(
                        "con-sub-1", s1, "node-con-1", List.of(sub("$share/con-grp/con/t", 1), sub("con/t/+", 0))));
        post(
                SessionApi.SUBSCRIBE,
                new SubscribeApi.SubscribeRequest(
                        "con-sub-2", s2, "node-con-1", List.of(sub("$share/con-grp/con/t", 0))));

        JsonNode group = get("/api/v1/search/subscriptions?filterPrefix=" + q("$share/con-grp/"))
                .body();
        assertThat(clientIds(group)).containsExactly("con-sub-1", "con-sub-2");
        assertThat(group.get("items").get(0).get("shareGroup").asString()).isEqualTo("con-grp");
        assertThat(group.get("items").get(0).get("connected").asBoolean()).isTrue();
        assertThat(group.get("items").get(0).get("nodeId").asString()).isEqualTo("node-con-1");
        assertThat(group.get("next").isNull()).isTrue();

        JsonNode page1 = get("/api/v1/search/subscriptions?filterPrefix=" + q("$share/con-grp/") + "&limit=1")
                .body();
        assertThat(clientIds(page1)).containsExactly("con-sub-1");
        JsonNode next = page1.get("next");
        JsonNode page2 = get("/api/v1/search/subscriptions?filterPrefix=" + q("$share/con-grp/") + "&limit=1"
                        + "&afterFilter=" + q(next.get("filter").asString()) + "&afterClientId="
                        + q(next.get("clientId").asString()))
                .body();
        assertThat(clientIds(page2)).containsExactly("con-sub-2");

        JsonNode held =
                get("/api/v1/search/subscriptions?filterPrefix=" + q("con/t/+")).body();
        assertThat(clientIds(held)).containsExactly("con-sub-1");
        assertThat(held.get("items").get(0).get("shareGroup").isNull()).isTrue();
        assertThat(held.get("items").get(0).get("qos").asInt()).isEqualTo(0);
        assertThat(clientIds(
                        get("/api/v1/search/subscriptions?clientId=con-sub-2").body()))
                .containsExactly("con-sub-2");
        assertThat(get("/api/v1/search/subscriptions?afterFilter=x").status()).isEqualTo(400);
    }

    @Test
    void overviewShowsNodesTheirFiguresAndTheConsumerGroups() throws Exception {
        post(SessionApi.HEARTBEAT, new LivenessApi.HeartbeatRequest("node-ovw", "inc-ovw"));
        // What the node's $SYS publisher leaves in the retained store (see ClusterStats)
        List<String> topics = List.of(
                SysTopics.node("node-ovw", SysTopics.CLIENTS_CONNECTED),
                SysTopics.node("node-ovw", SysTopics.MESSAGES_RECEIVED),
                SysTopics.node("node-ovw", SysTopics.MESSAGES_SENT));
        // Latency figures: the live node's, two routers' (one fresh, one last heard of an hour ago), a dead node's
        List<String> latency = List.of(
                SysTopics.node("node-ovw", DataPathHop.PUBLISH_ACK.statistic(DataPathHop.P50)),
                SysTopics.node("node-ovw", DataPathHop.PUBLISH_ACK.statistic(DataPathHop.P99)),
                SysTopics.node("node-ovw", DataPathHop.NODE_TO_SOCKET.statistic(DataPathHop.P99)),
                SysTopics.node("node-ovw-dead", DataPathHop.PUBLISH_ACK.statistic(DataPathHop.P99)),
                SysTopics.router("router-ovw", DataPathHop.ROUTE.statistic(DataPathHop.P50)),
                SysTopics.router("router-ovw", DataPathHop.ROUTE.statistic(DataPathHop.P99)),
                SysTopics.router("router-ovw-gone", DataPathHop.ROUTE.statistic(DataPathHop.P99)),
                // a hop a router does not measure, and a cleared figure: both ignored
                SysTopics.router("router-ovw", DataPathHop.PUBLISH_ACK.statistic(DataPathHop.P99)),
                SysTopics.router("router-ovw", DataPathHop.PUBLISH_TO_ROUTER.statistic(DataPathHop.P99)));
        retain(topics.get(0), "3");
        retain(topics.get(1), "120");
        retain(topics.get(2), "not a count");
        retain(latency.get(0), "1.250");
        retain(latency.get(1), "7.500");
        retain(latency.get(2), "0.400");
        retain(latency.get(3), "999.000");
        retain(latency.get(4), "2.000");
        retain(latency.get(5), "30.125");
        retain(latency.get(6), "500.000");
        retain(latency.get(7), "900.000");
        retain(latency.get(8), "");
        jdbc.sql("UPDATE retained_messages SET updated_at = now() - interval '1 hour' WHERE topic = :topic")
                .param("topic", latency.get(6))
                .update();
        try {
            overviewShowsNode();
            JsonNode hops = get("/api/v1/overview").body().get("latency");
            assertThat(hops.valueStream().map(h -> h.get("hop").asString()))
                    .containsExactly("publish-ack", "publish-to-router", "route", "downlink-to-node", "node-to-socket");
            JsonNode ack = hops.get(0);
            assertThat(ack.get("measuredBy").asString()).isEqualTo("transport");
            assertThat(ack.get("p50Millis").asDouble()).isEqualTo(1.25);
            assertThat(ack.get("p99Millis").asDouble()).isEqualTo(7.5);
            assertThat(ack.get("instances").asInt()).isEqualTo(1);
            assertThat(hops.get(1).get("instances").asInt()).isZero();
            assertThat(hops.get(1).get("p99Millis").isNull()).isTrue();
            JsonNode route = hops.get(2);
            assertThat(route.get("measuredBy").asString()).isEqualTo("routing");
            assertThat(route.get("p50Millis").asDouble()).isEqualTo(2.0);
            assertThat(route.get("p99Millis").asDouble()).isEqualTo(30.125);
            assertThat(route.get("instances").asInt()).isEqualTo(1);
            assertThat(hops.get(4).get("p50Millis").isNull()).isTrue();
            assertThat(hops.get(4).get("p99Millis").asDouble()).isEqualTo(0.4);
        } finally {
            unretain(topics);
            unretain(latency);
        }
    }

    private void overviewShowsNode() throws Exception {
        JsonNode overview = get("/api/v1/overview").body();
        JsonNode node = overview.get("transportNodes")
                .valueStream()
                .filter(n -> n.get("nodeId").asString().equals("node-ovw"))
                .findFirst()
                .orElseThrow();
        assertThat(node.get("alive").asBoolean()).isTrue();
        assertThat(node.get("connections").asLong()).isEqualTo(3);
        assertThat(node.get("messagesReceived").asLong()).isEqualTo(120);
        assertThat(node.get("messagesSent").isNull()).isTrue();
        assertThat(node.get("statsAt").isNull()).isFalse();
        assertThat(overview.get("connections").asLong()).isGreaterThanOrEqualTo(3);
        assertThat(overview.get("messagesReceived").asLong()).isGreaterThanOrEqualTo(120);
        assertThat(overview.get("sessions").asLong()).isPositive();
        // this service's retained consumer is the session-service group; no router runs here
        JsonNode sessionService = overview.get("sessionService");
        assertThat(sessionService.get("groupId").asString()).isEqualTo("tributary-retained-store");
        assertThat(sessionService.get("members").size()).isGreaterThanOrEqualTo(1);
        assertThat(overview.get("routing").get("groupId").asString()).isEqualTo("tributary-routing");
        assertThat(overview.get("routing").get("members").size()).isZero();
        assertThat(overview.get("problems").size()).isZero();
    }

    @Test
    void retainedSearchPagesByTopicKey() throws Exception {
        List<String> topics = List.of("con-ret/b", "con-ret/a", "con-ret_x", "con-ret/a/deeper");
        topics.forEach(t -> retain(t, "v-" + t));
        try {
            retainedPages();
        } finally {
            unretain(topics);
        }
    }

    private void retainedPages() throws Exception {
        JsonNode first = get("/api/v1/search/retained?prefix=" + q("con-ret/") + "&limit=2")
                .body();
        assertThat(first.get("items").valueStream().map(n -> n.get("topic").asString()))
                .containsExactly("con-ret/a", "con-ret/a/deeper");
        assertThat(first.get("items").get(0).get("payloadUtf8").asString()).isEqualTo("v-con-ret/a");
        JsonNode second = get("/api/v1/search/retained?prefix=" + q("con-ret/") + "&limit=2&after="
                        + q(first.get("next").asString()))
                .body();
        assertThat(second.get("items").valueStream().map(n -> n.get("topic").asString()))
                .containsExactly("con-ret/b");
        assertThat(second.get("next").isNull()).isTrue();
        JsonNode underscore =
                get("/api/v1/search/retained?prefix=" + q("con-ret_")).body();
        assertThat(underscore.get("items").valueStream().map(n -> n.get("topic").asString()))
                .containsExactly("con-ret_x");
    }

    @Test
    void kafkaViewListsTributaryTopicsAndGroups() throws Exception {
        JsonNode topics = get("/api/v1/kafka/topics").body();
        JsonNode publish = topics.valueStream()
                .filter(t -> t.get("name").asString().equals(TopicNames.PUBLISH))
                .findFirst()
                .orElseThrow();
        assertThat(publish.get("partitions").size()).isEqualTo(PARTITIONS);
        assertThat(topics.valueStream().map(t -> t.get("name").asString())).allMatch(n -> n.startsWith("tributary."));

        JsonNode groups = get("/api/v1/kafka/groups").body();
        assertThat(groups.valueStream().map(g -> g.get("groupId").asString())).contains("tributary-retained-store");
        JsonNode retained = get("/api/v1/kafka/groups/tributary-retained-store").body();
        assertThat(retained.get("members").size()).isGreaterThanOrEqualTo(1);
        assertThat(retained.get("members").get(0).get("partitions").asInt()).isPositive();
        JsonNode unknown = get("/api/v1/kafka/groups/no-such-group").body();
        assertThat(unknown.get("state").asString()).isEqualTo("Dead");
        assertThat(unknown.get("members").size()).isZero();
    }

    @Test
    void consoleIsServedWithoutATokenAndTheApiStillNeedsOne() throws Exception {
        HttpResponse<String> page =
                http.send(HttpRequest.newBuilder(uri("/console/")).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<div id=\"root\"></div>").contains("/console/assets/");
        HttpResponse<String> bare =
                http.send(HttpRequest.newBuilder(uri("/console")).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(bare.statusCode()).isEqualTo(302);
        assertThat(bare.headers().firstValue("Location").orElseThrow()).endsWith("/console/");
        HttpResponse<String> api = http.send(
                HttpRequest.newBuilder(uri("/api/v1/overview")).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(api.statusCode()).isEqualTo(401);
    }
}
