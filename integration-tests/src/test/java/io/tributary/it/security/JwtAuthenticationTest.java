package io.tributary.it.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.lifecycle.MqttDisconnectSource;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5DisconnectException;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5PubAckException;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5SubAckException;
import com.hivemq.client.mqtt.mqtt5.message.connect.connack.Mqtt5ConnAckReasonCode;
import com.hivemq.client.mqtt.mqtt5.message.disconnect.Mqtt5DisconnectReasonCode;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import com.hivemq.client.mqtt.mqtt5.message.publish.puback.Mqtt5PubAckReasonCode;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.suback.Mqtt5SubAckReasonCode;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.Satellite;
import io.tributary.it.support.TributaryCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.KeyPair;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.paho.client.mqttv3.IMqttDeliveryToken;
import org.eclipse.paho.client.mqttv3.MqttCallback;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.MqttMessage;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import tools.jackson.databind.JsonNode;

/**
 * JWT authentication on a session-service of its own (a satellite of the shared cluster, same engines) configured
 * with an HMAC secret, an RSA public key in PEM and an EC key in a JWKS file, all made here; tokens are minted by
 * {@link TestTokens} with JDK cryptography, and independent clients (HiveMQ 5, Paho 3.1.1) present them.
 */
@ExtendWith(LogsOnFailure.class)
class JwtAuthenticationTest {

    private static final String SECRET = "it-jwt-secret-" + UUID.randomUUID();
    private static final String AUDIENCE = "tributary-it";
    private static final String RSA_KEY_ID = "it-rsa-2026";
    private static final String EC_KEY_ID = "it-ec-1";
    /** Small, so the expiry test is quick; the close is due at exp + this. */
    private static final long CLOCK_SKEW_MS = 1000;

    private static TributaryCluster cluster;
    private static AuthApi api;
    private static Satellite jwt;
    private static KeyPair rsa;
    private static KeyPair ec;

    @RegisterExtension
    static final TestWatcher SATELLITE_LOGS = new TestWatcher() {
        @Override
        public void testFailed(ExtensionContext context, Throwable cause) {
            if (jwt != null) {
                System.err.println(jwt.logTails(60));
            }
        }
    };

    @BeforeAll
    static void satellite() throws Exception {
        cluster = TributaryCluster.shared();
        api = new AuthApi(cluster.sessionApiUrl());
        rsa = TestTokens.rsaKeyPair();
        ec = TestTokens.ecKeyPair();
        Path keys = Files.createTempDirectory(Paths.get("target").toAbsolutePath(), "jwt-keys");
        Path pem = Files.writeString(keys.resolve(RSA_KEY_ID + ".pem"), TestTokens.publicKeyPem(rsa));
        Path jwks = Files.writeString(keys.resolve("jwks.json"), TestTokens.ecJwks(ec, EC_KEY_ID));
        jwt = cluster.startSatellite(
                "it-jwt",
                Map.of(
                        "TRIBUTARY_JWT_ENABLED",
                        "true",
                        "TRIBUTARY_JWT_HMAC_SECRET",
                        SECRET,
                        "TRIBUTARY_JWT_PUBLIC_KEYS",
                        pem.toString(),
                        "TRIBUTARY_JWT_JWKS_FILE",
                        jwks.toString(),
                        "TRIBUTARY_JWT_AUDIENCE",
                        AUDIENCE,
                        // The test issuer's tokens carry no iss: accepted only because this says so.
                        "TRIBUTARY_JWT_ISSUER",
                        "*",
                        "TRIBUTARY_JWT_CLOCK_SKEW",
                        CLOCK_SKEW_MS + "ms"));
    }

    @AfterAll
    static void stop() {
        if (jwt != null) {
            jwt.close();
        }
    }

    private static long inSeconds(long seconds) {
        return System.currentTimeMillis() / 1000 + seconds;
    }

    /** Claims of a token for {@code user} on {@code clientId}, for this broker's audience, valid ten minutes. */
    private static Map<String, Object> claims(String user, String clientId, Map<String, Object> acl) {
        Map<String, Object> claims = TestTokens.claims(user, inSeconds(600));
        claims.put("aud", AUDIENCE);
        claims.put("client_id", clientId);
        if (acl != null) {
            claims.put("acl", acl);
        }
        return claims;
    }

    private static Mqtt5BlockingClient hive(String clientId, CompletableFuture<Throwable> closedByServer) {
        return com.hivemq.client.mqtt.MqttClient.builder()
                .useMqttVersion5()
                .identifier(clientId)
                .serverHost("127.0.0.1")
                .serverPort(jwt.mqttPort())
                .addDisconnectedListener(ctx -> {
                    if (ctx.getSource() == MqttDisconnectSource.SERVER) {
                        closedByServer.complete(ctx.getCause());
                    }
                })
                .buildBlocking();
    }

    private static MqttConnectOptions paho311(String user, String token) {
        MqttConnectOptions options = Clients.paho3Options(MqttConnectOptions.MQTT_VERSION_3_1_1);
        options.setUserName(user);
        options.setPassword(token.toCharArray());
        return options;
    }

    @Test
    void hmac_token_connects_and_may_publish_and_subscribe_only_within_its_acl() throws Exception {
        String user = Clients.id("jwt-u");
        String clientId = Clients.id("jwt-c");
        String root = Clients.id("jwt");
        String token = TestTokens.hs256(
                SECRET,
                claims(
                        user,
                        clientId,
                        TestTokens.acl(List.of(root + "/%c/#"), List.of(root + "/%u/#", root + "/%c/#"))));
        Mqtt5BlockingClient client = Clients.hive5(jwt.mqttPort(), clientId);
        AuthenticationTest.connect(client, user, token);
        try (Mqtt5BlockingClient.Mqtt5Publishes received = client.publishes(MqttGlobalPublishFilter.ALL)) {
            client.subscribeWith()
                    .topicFilter(root + "/" + clientId + "/#")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            assertThatThrownBy(() -> client.subscribeWith()
                            .topicFilter(root + "/#")
                            .qos(MqttQos.AT_LEAST_ONCE)
                            .send())
                    .isInstanceOfSatisfying(
                            Mqtt5SubAckException.class,
                            e -> assertThat(e.getMqttMessage().getReasonCodes())
                                    .containsExactly(Mqtt5SubAckReasonCode.NOT_AUTHORIZED));
            assertThatThrownBy(() -> client.publishWith()
                            .topic(root + "/" + user + "/x")
                            .qos(MqttQos.AT_LEAST_ONCE)
                            .payload("denied".getBytes(StandardCharsets.UTF_8))
                            .send())
                    .isInstanceOfSatisfying(
                            Mqtt5PubAckException.class,
                            e -> assertThat(e.getMqttMessage().getReasonCode())
                                    .isEqualTo(Mqtt5PubAckReasonCode.NOT_AUTHORIZED));
            client.publishWith()
                    .topic(root + "/" + clientId + "/power")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .payload("allowed".getBytes(StandardCharsets.UTF_8))
                    .send();

            Optional<Mqtt5Publish> first = received.receive(20, TimeUnit.SECONDS);
            assertThat(first).isPresent();
            assertThat(first.get().getTopic().toString()).isEqualTo(root + "/" + clientId + "/power");
            assertThat(new String(first.get().getPayloadAsBytes(), StandardCharsets.UTF_8))
                    .isEqualTo("allowed");
        } finally {
            client.disconnect();
        }
    }

    @Test
    void rsa_token_from_a_pem_key_and_ec_token_from_a_jwks_file_connect_mqtt_311_and_5() throws Exception {
        String user = Clients.id("jwt-rsa");
        String clientId = Clients.id("jwt-r");
        String root = Clients.id("jwtr");
        String rsaToken = TestTokens.rs256(
                rsa.getPrivate(),
                RSA_KEY_ID,
                claims(user, clientId, TestTokens.acl(List.of(root + "/#"), List.of(root + "/#"))));
        MqttClient paho = new MqttClient("tcp://127.0.0.1:" + jwt.mqttPort(), clientId, new MemoryPersistence());
        CompletableFuture<String> arrived = new CompletableFuture<>();
        paho.setCallback(new MqttCallback() {
            @Override
            public void connectionLost(Throwable cause) {}

            @Override
            public void messageArrived(String topic, MqttMessage message) {
                arrived.complete(topic + "=" + new String(message.getPayload(), StandardCharsets.UTF_8));
            }

            @Override
            public void deliveryComplete(IMqttDeliveryToken token) {}
        });
        paho.connect(paho311(user, rsaToken));
        paho.subscribe(root + "/#", 1);

        // Another identity, another key: an ES256 token whose key comes from the JWKS file, over MQTT 5.
        String ecUser = Clients.id("jwt-ec");
        String ecClientId = Clients.id("jwt-e");
        String ecToken = TestTokens.es256(
                ec.getPrivate(),
                EC_KEY_ID,
                claims(ecUser, ecClientId, TestTokens.acl(List.of(root + "/from-ec"), List.of())));
        Mqtt5BlockingClient publisher = Clients.hive5(jwt.mqttPort(), ecClientId);
        AuthenticationTest.connect(publisher, ecUser, ecToken);
        publisher
                .publishWith()
                .topic(root + "/from-ec")
                .qos(MqttQos.AT_LEAST_ONCE)
                .payload("hello".getBytes(StandardCharsets.UTF_8))
                .send();

        assertThat(arrived.get(20, TimeUnit.SECONDS)).isEqualTo(root + "/from-ec=hello");
        publisher.disconnect();
        paho.disconnect();
        paho.close();
    }

    @Test
    void expired_forged_unknown_key_and_wrong_audience_tokens_are_refused_and_counted() throws Exception {
        String user = Clients.id("jwt-bad");
        String clientId = Clients.id("jwt-bad");
        Map<String, Object> acl = TestTokens.acl(List.of("#"), List.of("#"));

        Map<String, Object> expired = claims(user, clientId, acl);
        expired.put("exp", inSeconds(-60));
        String wrongSecret = TestTokens.hs256("not-the-secret-" + UUID.randomUUID(), claims(user, clientId, acl));
        String unknownKey = TestTokens.rs256(rsa.getPrivate(), "retired-key", claims(user, clientId, acl));
        Map<String, Object> otherAudience = claims(user, clientId, acl);
        otherAudience.put("aud", "another-service");

        for (String token : List.of(
                TestTokens.hs256(SECRET, expired), wrongSecret, unknownKey, TestTokens.hs256(SECRET, otherAudience))) {
            assertThat(AuthenticationTest.refusal(
                            () -> AuthenticationTest.connect(Clients.hive5(jwt.mqttPort(), clientId), user, token)))
                    .isEqualTo(Mqtt5ConnAckReasonCode.BAD_USER_NAME_OR_PASSWORD);
        }
        // A valid token presented under another user name is not that user's.
        assertThat(AuthenticationTest.refusal(() -> AuthenticationTest.connect(
                        Clients.hive5(jwt.mqttPort(), clientId),
                        Clients.id("someone-else"),
                        TestTokens.hs256(SECRET, claims(user, clientId, acl)))))
                .isEqualTo(Mqtt5ConnAckReasonCode.BAD_USER_NAME_OR_PASSWORD);
        String pahoId = Clients.id("jwt-bad3");
        Map<String, Object> expiredPaho = claims(user, pahoId, acl);
        expiredPaho.put("exp", inSeconds(-60));
        assertThat(AuthenticationTest.paho3Refusal(jwt.mqttPort(), pahoId, user, TestTokens.hs256(SECRET, expiredPaho)))
                .as("MQTT 3.1.1 return code 4")
                .isEqualTo(MqttException.REASON_CODE_FAILED_AUTHENTICATION);

        JsonNode mine = null;
        for (JsonNode row : api.failures().path("items")) {
            if (row.path("clientId").asString().equals(clientId)) {
                mine = row;
            }
        }
        assertThat(mine).as("failed attempts of " + clientId).isNotNull();
        assertThat(mine.path("failures").asLong()).isEqualTo(5);
        assertThat(mine.path("lastCause").asString()).isEqualTo("token_username_mismatch");
        assertThat(api.failures().toString()).contains(pahoId).contains("token_expired");
    }

    @Test
    void a_token_that_expires_while_connected_is_closed_at_expiry_0xA0_in_mqtt5_and_closed_in_311() throws Exception {
        String user = Clients.id("jwt-exp");
        String clientId = Clients.id("jwt-x5");
        String pahoId = Clients.id("jwt-x3");
        long exp = inSeconds(5);
        long closeDueMs = exp * 1000 + CLOCK_SKEW_MS;
        Map<String, Object> acl = TestTokens.acl(List.of("#"), List.of("#"));
        Map<String, Object> claims5 = claims(user, clientId, acl);
        claims5.put("exp", exp);
        Map<String, Object> claims3 = claims(user, pahoId, acl);
        claims3.put("exp", exp);

        CompletableFuture<Throwable> closed = new CompletableFuture<>();
        Mqtt5BlockingClient client = hive(clientId, closed);
        AuthenticationTest.connect(client, user, TestTokens.hs256(SECRET, claims5));
        CompletableFuture<Long> pahoLost = new CompletableFuture<>();
        MqttClient paho = new MqttClient("tcp://127.0.0.1:" + jwt.mqttPort(), pahoId, new MemoryPersistence());
        paho.setCallback(new MqttCallback() {
            @Override
            public void connectionLost(Throwable cause) {
                pahoLost.complete(System.currentTimeMillis());
            }

            @Override
            public void messageArrived(String topic, MqttMessage message) {}

            @Override
            public void deliveryComplete(IMqttDeliveryToken token) {}
        });
        paho.connect(paho311(user, TestTokens.hs256(SECRET, claims3)));
        assertThat(System.currentTimeMillis()).as("connected before the expiry").isLessThan(closeDueMs);

        Throwable cause = closed.get(30, TimeUnit.SECONDS);
        long closedAt = System.currentTimeMillis();
        assertThat(cause).isInstanceOf(Mqtt5DisconnectException.class);
        assertThat(((Mqtt5DisconnectException) cause).getMqttMessage().getReasonCode())
                .isEqualTo(Mqtt5DisconnectReasonCode.MAXIMUM_CONNECT_TIME);
        // Not before the token's end (exp + skew), and promptly after it.
        assertThat(closedAt).isBetween(closeDueMs, closeDueMs + 3000);
        long lostAt = pahoLost.get(30, TimeUnit.SECONDS);
        assertThat(lostAt).isBetween(closeDueMs, closeDueMs + 3000);
        paho.close();
    }

    @Test
    void a_token_without_acl_takes_its_subjects_credential_and_blocking_that_credential_revokes_it() throws Exception {
        String user = Clients.id("jwt-cred");
        String clientId = Clients.id("jwt-cr");
        String root = Clients.id("jwtc");
        // No ACL in the token and no credential for its subject: authenticated, but nothing allows anything.
        String token = TestTokens.hs256(SECRET, claims(user, clientId, null));
        assertThat(AuthenticationTest.refusal(
                        () -> AuthenticationTest.connect(Clients.hive5(jwt.mqttPort(), clientId), user, token)))
                .isEqualTo(Mqtt5ConnAckReasonCode.NOT_AUTHORIZED);

        long id = api.create(AuthApi.credential(user, null, "unused-password", List.of(root + "/%u/#"), List.of()));
        CompletableFuture<Throwable> closed = new CompletableFuture<>();
        Mqtt5BlockingClient client = hive(clientId, closed);
        AuthenticationTest.connect(client, user, token);
        client.publishWith()
                .topic(root + "/" + user + "/ok")
                .qos(MqttQos.AT_LEAST_ONCE)
                .payload("allowed".getBytes(StandardCharsets.UTF_8))
                .send();
        assertThatThrownBy(() -> client.publishWith()
                        .topic(root + "/x")
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .payload("denied".getBytes(StandardCharsets.UTF_8))
                        .send())
                .isInstanceOf(Mqtt5PubAckException.class);

        api.update(
                id,
                AuthApi.credential(user, null, null, List.of(root + "/%u/#"), List.of())
                        .put("blocked", true));

        Throwable cause = closed.get(15, TimeUnit.SECONDS);
        assertThat(((Mqtt5DisconnectException) cause).getMqttMessage().getReasonCode())
                .isEqualTo(Mqtt5DisconnectReasonCode.NOT_AUTHORIZED);
        assertThat(AuthenticationTest.refusal(
                        () -> AuthenticationTest.connect(Clients.hive5(jwt.mqttPort(), clientId), user, token)))
                .isEqualTo(Mqtt5ConnAckReasonCode.NOT_AUTHORIZED);
    }
}
