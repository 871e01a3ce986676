package io.tributary.common.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Pins the JSON of the internal API's bodies: transport nodes and session-service of different versions talk through
 * it during a rolling upgrade, so a renamed or reordered record component must fail here, not in production.
 */
class InternalApiJsonTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final ConnectApi.ConnectRequest CONNECT = new ConnectApi.ConnectRequest(
            "c1",
            "node-a",
            true,
            60,
            5,
            30,
            "10.0.0.1:5000",
            "alice",
            "inc-1",
            new ConnectApi.Will("w/t", bytes("bye"), 1, true, 30, null),
            bytes("pw"),
            "cn-1",
            false);

    private static final String CONNECT_JSON = "{\"clientId\":\"c1\",\"nodeId\":\"node-a\",\"cleanStart\":true,"
            + "\"sessionExpirySeconds\":60,\"protocolVersion\":5,\"keepAliveSeconds\":30,"
            + "\"remoteAddress\":\"10.0.0.1:5000\",\"username\":\"alice\",\"nodeIncarnation\":\"inc-1\","
            + "\"will\":{\"topic\":\"w/t\",\"payload\":\"Ynll\",\"qos\":1,\"retain\":true,\"delaySeconds\":30,"
            + "\"properties\":null},\"password\":\"cHc=\",\"certificateCommonName\":\"cn-1\",\"warmUp\":false}";

    @Test
    void connect_bodies_keep_their_field_names() {
        assertWire(CONNECT, CONNECT_JSON);
        assertWire(new ConnectApi.ConnectBatch(List.of(CONNECT)), "{\"requests\":[" + CONNECT_JSON + "]}");
        assertWire(
                new ConnectApi.ConnectResponse(
                        7,
                        true,
                        List.of(new SubscribeApi.Subscription("a/#", 1, false, true, 0, 9)),
                        new ConnectApi.Acl(List.of("a/#"), List.of("b/+")),
                        1700000000000L,
                        "t1",
                        60L),
                "{\"epoch\":7,\"sessionPresent\":true,\"subscriptions\":[{\"filter\":\"a/#\",\"qos\":1,"
                        + "\"noLocal\":false,\"retainAsPublished\":true,\"retainHandling\":0,\"subscriptionId\":9}],"
                        + "\"acl\":{\"publish\":[\"a/#\"],\"subscribe\":[\"b/+\"]},"
                        + "\"authenticationExpiresAt\":1700000000000,\"tenant\":\"t1\",\"sessionExpirySeconds\":60}");
        assertWire(
                new ConnectApi.ConnectRefusal(ConnectApi.RefusalReason.BANNED, "banned"),
                "{\"reason\":\"BANNED\",\"message\":\"banned\"}");
        assertWire(
                new ConnectApi.ConnectBatchResponse(List.of(
                        ConnectApi.ConnectOutcome.unavailable("busy"),
                        ConnectApi.ConnectOutcome.refused(
                                new ConnectApi.ConnectRefusal(ConnectApi.RefusalReason.QUOTA_EXCEEDED, "full")))),
                "{\"outcomes\":[{\"accepted\":null,\"refused\":null,\"unavailable\":\"busy\"},"
                        + "{\"accepted\":null,\"refused\":{\"reason\":\"QUOTA_EXCEEDED\",\"message\":\"full\"},"
                        + "\"unavailable\":null}]}");
    }

    @Test
    void disconnect_liveness_and_limits_bodies_keep_their_field_names() {
        assertWire(
                new DisconnectApi.DisconnectBatch(List.of(
                        new DisconnectApi.DisconnectRequest("c1", 7, "node-a", 0, DisconnectApi.WillOutcome.SCHEDULE))),
                "{\"requests\":[{\"clientId\":\"c1\",\"epoch\":7,\"nodeId\":\"node-a\",\"sessionExpirySeconds\":0,"
                        + "\"will\":\"SCHEDULE\"}]}");
        assertWire(
                new LivenessApi.HeartbeatRequest("node-a", "inc-1"),
                "{\"nodeId\":\"node-a\",\"incarnation\":\"inc-1\"}");
        assertWire(new LivenessApi.HeartbeatResponse(true), "{\"declaredDead\":true}");
        assertWire(
                new LimitsApi.BlockedIps("v3", List.of("10.0.0.0/8")),
                "{\"version\":\"v3\",\"ranges\":[\"10.0.0.0/8\"]}");
        assertWire(
                new LimitsApi.TenantPublishQuotas(
                        List.of(new LimitsApi.TenantPublishQuota("t1", 100, 1000L, true, 50, 2000L))),
                "{\"tenants\":[{\"tenant\":\"t1\",\"maxPublishRate\":100,\"maxPublishBytesRate\":1000,"
                        + "\"retainedFull\":true,\"maxQueuedMessages\":50,\"maxDeliveryBytesRate\":2000}]}");
    }

    /** Written as {@code json}, and read back to the same JSON (records holding byte arrays have no value equality). */
    private static void assertWire(Object body, String json) {
        assertThat(JSON.writeValueAsString(body)).isEqualTo(json);
        assertThat(JSON.writeValueAsString(JSON.readValue(json, body.getClass())))
                .as("read back")
                .isEqualTo(json);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
