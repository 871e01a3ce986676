package io.tributary.it.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.lifecycle.MqttDisconnectSource;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5ConnAckException;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5DisconnectException;
import com.hivemq.client.mqtt.mqtt5.message.connect.connack.Mqtt5ConnAckReasonCode;
import com.hivemq.client.mqtt.mqtt5.message.disconnect.Mqtt5DisconnectReasonCode;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.Satellite;
import io.tributary.it.support.TributaryCluster;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

/**
 * CONNECT authentication against credentials created through the REST API, with independent clients (HiveMQ 5,
 * Paho 3.1.1). The shared cluster allows anonymous clients, as the quick start does; a credential still binds its
 * user name or client id, and the production default (anonymous refused) runs on a satellite session-service.
 */
@ExtendWith(LogsOnFailure.class)
class AuthenticationTest {

    private static TributaryCluster cluster;
    private static AuthApi api;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
        api = new AuthApi(cluster.sessionApiUrl());
    }

    static Mqtt5BlockingClient hive(int port, String clientId, CompletableFuture<Throwable> closedByServer) {
        return com.hivemq.client.mqtt.MqttClient.builder()
                .useMqttVersion5()
                .identifier(clientId)
                .serverHost("127.0.0.1")
                .serverPort(port)
                .addDisconnectedListener(ctx -> {
                    if (ctx.getSource() == MqttDisconnectSource.SERVER) {
                        closedByServer.complete(ctx.getCause());
                    }
                })
                .buildBlocking();
    }

    static void connect(Mqtt5BlockingClient client, String username, String password) {
        client.connectWith()
                .simpleAuth()
                .username(username)
                .password(password.getBytes(StandardCharsets.UTF_8))
                .applySimpleAuth()
                .send();
    }

    static Mqtt5ConnAckReasonCode refusal(Runnable connect) {
        try {
            connect.run();
        } catch (Mqtt5ConnAckException e) {
            return e.getMqttMessage().getReasonCode();
        }
        throw new AssertionError("CONNECT was accepted");
    }

    static int paho3Refusal(int port, String clientId, String username, String password) throws Exception {
        MqttClient client = new MqttClient("tcp://127.0.0.1:" + port, clientId, new MemoryPersistence());
        MqttConnectOptions options = Clients.paho3Options(MqttConnectOptions.MQTT_VERSION_3_1_1);
        if (username != null) {
            options.setUserName(username);
            options.setPassword(password.toCharArray());
        }
        try {
            client.connect(options);
            client.disconnect();
            throw new AssertionError("CONNECT was accepted");
        } catch (MqttException e) {
            return e.getReasonCode();
        } finally {
            client.close();
        }
    }

    @Test
    void good_password_connects_wrong_password_and_unknown_user_are_refused_and_counted() throws Exception {
        String user = Clients.id("auth-user");
        String clientId = Clients.id("auth-c");
        api.create(AuthApi.credential(user, null, "s3cret-pw", List.of("#"), List.of("#")));

        Mqtt5BlockingClient good = Clients.hive5(cluster.mqttPort(0), clientId);
        connect(good, user, "s3cret-pw");
        good.disconnect();

        assertThat(refusal(() -> connect(Clients.hive5(cluster.mqttPort(0), clientId), user, "wrong")))
                .isEqualTo(Mqtt5ConnAckReasonCode.BAD_USER_NAME_OR_PASSWORD);
        assertThat(refusal(
                        () -> connect(Clients.hive5(cluster.mqttPort(1), clientId), Clients.id("nobody"), "whatever")))
                .isEqualTo(Mqtt5ConnAckReasonCode.BAD_USER_NAME_OR_PASSWORD);
        // A known user name without its password is refused too, anonymous access or not.
        assertThat(refusal(() -> Clients.hive5(cluster.mqttPort(0), clientId)
                        .connectWith()
                        .simpleAuth()
                        .username(user)
                        .applySimpleAuth()
                        .send()))
                .isEqualTo(Mqtt5ConnAckReasonCode.BAD_USER_NAME_OR_PASSWORD);

        String paho = Clients.id("auth-p3");
        assertThat(paho3Refusal(cluster.mqttPort(1), paho, user, "wrong"))
                .as("MQTT 3.1.1 return code 4")
                .isEqualTo(MqttException.REASON_CODE_FAILED_AUTHENTICATION);

        JsonNode rows = api.failures().path("items");
        JsonNode mine = null;
        for (JsonNode row : rows) {
            if (row.path("clientId").asString().equals(clientId)) {
                mine = row;
            }
        }
        assertThat(mine).as("failures of " + clientId + " in " + rows).isNotNull();
        assertThat(mine.path("failures").asLong()).isEqualTo(3);
        assertThat(mine.path("remoteIp").asString()).isEqualTo("127.0.0.1");
        assertThat(mine.path("lastFailureAt").asString()).isNotEmpty();
        assertThat(rows.toString()).contains(paho);
    }

    @Test
    void after_ten_wrong_passwords_for_a_user_name_its_connects_are_refused_unchecked_with_0x9f_and_3()
            throws Exception {
        String user = Clients.id("auth-guessed");
        String other = Clients.id("auth-other");
        api.create(AuthApi.credential(user, null, "right-pw", List.of("#"), List.of("#")));
        api.create(AuthApi.credential(other, null, "right-pw", List.of("#"), List.of("#")));
        for (int i = 0; i < 10; i++) {
            String guess = "guess-" + i;
            int node = i % 2;
            assertThat(refusal(() -> connect(Clients.hive5(cluster.mqttPort(node), Clients.id("guess")), user, guess)))
                    .as("guess %d is checked", i + 1)
                    .isEqualTo(Mqtt5ConnAckReasonCode.BAD_USER_NAME_OR_PASSWORD);
        }
        assertThat(refusal(() -> connect(Clients.hive5(cluster.mqttPort(0), Clients.id("right")), user, "right-pw")))
                .as("held back: even the right password is not checked")
                .isEqualTo(Mqtt5ConnAckReasonCode.CONNECTION_RATE_EXCEEDED);
        assertThat(paho3Refusal(cluster.mqttPort(1), Clients.id("right-p3"), user, "right-pw"))
                .as("MQTT 3.1.1: return code 3, server unavailable")
                .isEqualTo(MqttException.REASON_CODE_BROKER_UNAVAILABLE);

        Mqtt5BlockingClient unaffected = Clients.hive5(cluster.mqttPort(0), Clients.id("other"));
        connect(unaffected, other, "right-pw");
        unaffected.disconnect();
    }

    @Test
    void credential_bound_to_a_client_id_protects_that_client_id() throws Exception {
        String clientId = Clients.id("auth-bound");
        api.create(AuthApi.credential(null, clientId, "device-pw", List.of("#"), List.of("#")));

        assertThat(refusal(() -> Clients.hive5(cluster.mqttPort(0), clientId).connect()))
                .as("no password for a protected client id")
                .isEqualTo(Mqtt5ConnAckReasonCode.BAD_USER_NAME_OR_PASSWORD);
        Mqtt5BlockingClient client = Clients.hive5(cluster.mqttPort(0), clientId);
        // MQTT 5 allows a password without a user name; the client id selects the credential.
        client.connectWith()
                .simpleAuth()
                .password("device-pw".getBytes(StandardCharsets.UTF_8))
                .applySimpleAuth()
                .send();
        client.disconnect();
    }

    @Test
    void blocking_a_credential_disconnects_its_live_clients_0x87_and_refuses_them_afterwards() throws Exception {
        String user = Clients.id("auth-blk");
        String password = "block-me";
        long id = api.create(AuthApi.credential(user, null, password, List.of("#"), List.of("#")));
        String clientId = Clients.id("auth-blk");
        CompletableFuture<Throwable> closed = new CompletableFuture<>();
        Mqtt5BlockingClient live = hive(cluster.mqttPort(1), clientId, closed);
        connect(live, user, password);

        String pahoId = Clients.id("auth-blk3");
        MqttClient paho = new MqttClient("tcp://127.0.0.1:" + cluster.mqttPort(0), pahoId, new MemoryPersistence());
        MqttConnectOptions options = Clients.paho3Options(MqttConnectOptions.MQTT_VERSION_3_1_1);
        options.setUserName(user);
        options.setPassword(password.toCharArray());
        paho.connect(options);
        assertThat(paho.isConnected()).isTrue();

        api.update(
                id,
                AuthApi.credential(user, null, null, List.of("#"), List.of("#")).put("blocked", true));

        Throwable cause = closed.get(15, TimeUnit.SECONDS);
        assertThat(cause).isInstanceOf(Mqtt5DisconnectException.class);
        assertThat(((Mqtt5DisconnectException) cause).getMqttMessage().getReasonCode())
                .isEqualTo(Mqtt5DisconnectReasonCode.NOT_AUTHORIZED);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (paho.isConnected() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(paho.isConnected()).as("MQTT 3.1.1 client closed too").isFalse();
        paho.close();

        assertThat(refusal(() -> connect(Clients.hive5(cluster.mqttPort(0), clientId), user, password)))
                .isEqualTo(Mqtt5ConnAckReasonCode.NOT_AUTHORIZED);
        assertThat(paho3Refusal(cluster.mqttPort(1), pahoId, user, password))
                .as("MQTT 3.1.1 return code 5")
                .isEqualTo(MqttException.REASON_CODE_NOT_AUTHORIZED);
    }

    @Test
    void deleting_a_credential_disconnects_its_live_client_0x87() throws Exception {
        String user = Clients.id("auth-del");
        long id = api.create(AuthApi.credential(user, null, "pw", List.of("#"), List.of("#")));
        CompletableFuture<Throwable> closed = new CompletableFuture<>();
        Mqtt5BlockingClient live = hive(cluster.mqttPort(0), Clients.id("auth-del"), closed);
        connect(live, user, "pw");

        api.delete(id);

        Throwable cause = closed.get(15, TimeUnit.SECONDS);
        assertThat(((Mqtt5DisconnectException) cause).getMqttMessage().getReasonCode())
                .isEqualTo(Mqtt5DisconnectReasonCode.NOT_AUTHORIZED);
        assertThat(refusal(() -> connect(Clients.hive5(cluster.mqttPort(0), Clients.id("auth-del")), user, "pw")))
                .isEqualTo(Mqtt5ConnAckReasonCode.BAD_USER_NAME_OR_PASSWORD);
        api.send("GET", "/credentials/" + id, null, 404);
    }

    @Test
    void anonymous_clients_are_refused_where_anonymous_access_is_off() throws Exception {
        // The production default: a session-service without TRIBUTARY_AUTH_ANONYMOUS.
        try (Satellite strict = cluster.startSatellite("it-strict", Map.of())) {
            try {
                assertThat(refusal(() -> Clients.hive5(strict.mqttPort(), Clients.id("anon5"))
                                .connect()))
                        .isEqualTo(Mqtt5ConnAckReasonCode.NOT_AUTHORIZED);
                assertThat(paho3Refusal(strict.mqttPort(), Clients.id("anon3"), null, null))
                        .as("MQTT 3.1.1 return code 5")
                        .isEqualTo(MqttException.REASON_CODE_NOT_AUTHORIZED);
                // Credentials work there as everywhere.
                String user = Clients.id("strict");
                api.create(AuthApi.credential(user, null, "pw", List.of("#"), List.of("#")));
                Mqtt5BlockingClient client = Clients.hive5(strict.mqttPort(), Clients.id("strict"));
                connect(client, user, "pw");
                client.disconnect();
            } catch (AssertionError | RuntimeException e) {
                System.err.println(strict.logTails(60));
                throw e;
            }
        }
    }
}
