package io.tributary.it.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.lifecycle.MqttDisconnectSource;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5DisconnectException;
import com.hivemq.client.mqtt.mqtt5.message.connect.connack.Mqtt5ConnAckReasonCode;
import com.hivemq.client.mqtt.mqtt5.message.disconnect.Mqtt5DisconnectReasonCode;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.TributaryCluster;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The block list through the admin REST API on the shared cluster: adding an entry closes the matching live clients on
 * every node with DISCONNECT 0x98 (administrative action), their CONNECTs are refused as banned (MQTT 5 0x8A, 3.1.1
 * return code 5), and removing it lets them in again. Address entries use 127.0.0.2 (clients bind it as their source address), so the
 * other tests' clients on 127.0.0.1 are never affected.
 */
@ExtendWith(LogsOnFailure.class)
class BlockListTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static TributaryCluster cluster;
    private static AuthApi api;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
        api = new AuthApi(cluster.sessionApiUrl());
    }

    private static long block(String field, String value) throws Exception {
        JsonNode added = api.send(
                "POST",
                "/blocklist",
                JSON.createObjectNode()
                        .put(field, value)
                        .put("reason", "integration test")
                        .toString(),
                201);
        return added.path("entry").path("id").asLong();
    }

    private static void unblock(long id) throws Exception {
        api.send("DELETE", "/blocklist/" + id, null, 204);
    }

    private static Mqtt5BlockingClient watched(
            int port, String clientId, String sourceAddress, CompletableFuture<Throwable> closedByServer) {
        var builder =
                com.hivemq.client.mqtt.MqttClient.builder().useMqttVersion5().identifier(clientId);
        builder = sourceAddress == null
                ? builder.serverHost("127.0.0.1").serverPort(port)
                : builder.transportConfig()
                        .serverAddress(new InetSocketAddress("127.0.0.1", port))
                        .localAddress(sourceAddress)
                        .applyTransportConfig();
        return builder.addDisconnectedListener(ctx -> {
                    if (ctx.getSource() == MqttDisconnectSource.SERVER) {
                        closedByServer.complete(ctx.getCause());
                    }
                })
                .buildBlocking();
    }

    private static void assertBanned(CompletableFuture<Throwable> closed) throws Exception {
        Throwable cause = closed.get(15, TimeUnit.SECONDS);
        assertThat(cause).isInstanceOf(Mqtt5DisconnectException.class);
        assertThat(((Mqtt5DisconnectException) cause).getMqttMessage().getReasonCode())
                .as("0x8A (banned) exists only in CONNACK; DISCONNECT says administrative action")
                .isEqualTo(Mqtt5DisconnectReasonCode.ADMINISTRATIVE_ACTION);
    }

    @Test
    void a_blocked_client_id_is_disconnected_0x8a_refused_as_banned_and_connects_again_when_removed() throws Exception {
        String clientId = Clients.id("blk-c");
        CompletableFuture<Throwable> closed = new CompletableFuture<>();
        Mqtt5BlockingClient live = watched(cluster.mqttPort(1), clientId, null, closed);
        live.connect();

        long id = block("clientId", clientId);
        try {
            assertBanned(closed);
            assertThat(AuthenticationTest.refusal(
                            () -> Clients.hive5(cluster.mqttPort(0), clientId).connect()))
                    .isEqualTo(Mqtt5ConnAckReasonCode.BANNED);
            assertThat(AuthenticationTest.paho3Refusal(cluster.mqttPort(1), clientId, null, null))
                    .as("MQTT 3.1.1 return code 5")
                    .isEqualTo(MqttException.REASON_CODE_NOT_AUTHORIZED);
        } finally {
            unblock(id);
        }
        Mqtt5BlockingClient again = Clients.hive5(cluster.mqttPort(0), clientId);
        assertThat(again.connect().getReasonCode()).isEqualTo(Mqtt5ConnAckReasonCode.SUCCESS);
        again.disconnect();
    }

    @Test
    void a_blocked_user_name_is_disconnected_on_every_node() throws Exception {
        String user = Clients.id("blk-u");
        CompletableFuture<Throwable> closed0 = new CompletableFuture<>();
        CompletableFuture<Throwable> closed1 = new CompletableFuture<>();
        Mqtt5BlockingClient on0 = watched(cluster.mqttPort(0), Clients.id("blk-u0"), null, closed0);
        Mqtt5BlockingClient on1 = watched(cluster.mqttPort(1), Clients.id("blk-u1"), null, closed1);
        // Anonymous (no password) with a user name: the shared cluster allows it, as the quick start does.
        on0.connectWith().simpleAuth().username(user).applySimpleAuth().send();
        on1.connectWith().simpleAuth().username(user).applySimpleAuth().send();
        Mqtt5BlockingClient bystander = Clients.hive5(cluster.mqttPort(0), Clients.id("blk-other"));
        bystander.connect();

        long id = block("username", user);
        try {
            assertBanned(closed0);
            assertBanned(closed1);
            assertThat(AuthenticationTest.refusal(() -> Clients.hive5(cluster.mqttPort(1), Clients.id("blk-u2"))
                            .connectWith()
                            .simpleAuth()
                            .username(user)
                            .applySimpleAuth()
                            .send()))
                    .isEqualTo(Mqtt5ConnAckReasonCode.BANNED);
            assertThat(bystander.getState().isConnected())
                    .as("other clients stay")
                    .isTrue();
        } finally {
            unblock(id);
        }
        bystander.disconnect();
    }

    @Test
    void a_blocked_address_is_disconnected_then_refused_by_the_node_itself_until_removed() throws Exception {
        String source = "127.0.0.2";
        CompletableFuture<Throwable> closed = new CompletableFuture<>();
        Mqtt5BlockingClient fromBlocked = watched(cluster.mqttPort(0), Clients.id("blk-ip"), source, closed);
        fromBlocked.connect();
        Mqtt5BlockingClient fromLoopback = Clients.hive5(cluster.mqttPort(0), Clients.id("blk-lo"));
        fromLoopback.connect();
        double before = LimitsTest.refusals(cluster.transportManagementUrl(0), "blocked_ip");

        long id = block("ip", source);
        try {
            assertBanned(closed);
            assertThat(fromLoopback.getState().isConnected())
                    .as("127.0.0.1 is not blocked")
                    .isTrue();
            // Refused at once by session-service; within the node's refresh interval by the node itself, before
            // any session-service call (counted as blocked_ip on the node).
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (true) {
                assertThat(AuthenticationTest.refusal(() -> watched(
                                        cluster.mqttPort(0), Clients.id("blk-ip2"), source, new CompletableFuture<>())
                                .connect()))
                        .isEqualTo(Mqtt5ConnAckReasonCode.BANNED);
                if (LimitsTest.refusals(cluster.transportManagementUrl(0), "blocked_ip") > before) {
                    break;
                }
                assertThat(System.nanoTime()).as("node learned the entry").isLessThan(deadline);
                Thread.sleep(500);
            }
        } finally {
            unblock(id);
        }
        // The node forgets the entry within its refresh interval.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            Mqtt5BlockingClient back =
                    watched(cluster.mqttPort(0), Clients.id("blk-ip3"), source, new CompletableFuture<>());
            try {
                back.connect();
                back.disconnect();
                break;
            } catch (RuntimeException e) {
                assertThat(System.nanoTime())
                        .as("connects again after removal: " + e)
                        .isLessThan(deadline);
                Thread.sleep(500);
            }
        }
        fromLoopback.disconnect();
    }
}
