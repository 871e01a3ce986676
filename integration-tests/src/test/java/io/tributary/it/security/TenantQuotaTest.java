package io.tributary.it.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5ConnAckException;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5SubAckException;
import com.hivemq.client.mqtt.mqtt5.message.connect.connack.Mqtt5ConnAck;
import com.hivemq.client.mqtt.mqtt5.message.connect.connack.Mqtt5ConnAckReasonCode;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.Mqtt5Subscribe;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.Mqtt5SubscribeBuilder;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.suback.Mqtt5SubAckReasonCode;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.TributaryCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.paho.client.mqttv3.IMqttToken;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A tenant's quotas hold for the cluster, not per node (issue #17): clients of one tenant connecting and subscribing
 * through both transport nodes at the same moment get exactly what the quota allows, and the rest are refused with
 * each quota's reason code, MQTT 5 (HiveMQ client) and 3.1.1 (Paho) alike: persistent sessions CONNACK 0x97 (3.1.1:
 * 3), the CONNECT rate 0x9F (3.1.1: 3), subscriptions SUBACK 0x97 per filter (3.1.1: 0x80). Every refusal
 * is counted in session-service's {@code tributary_tenant_quota_refusals_total{tenant,quota}}.
 */
@ExtendWith(LogsOnFailure.class)
class TenantQuotaTest {

    private static final String PASSWORD = "pw-quota";
    private static TributaryCluster cluster;
    private static AuthApi api;
    private final List<Mqtt5BlockingClient> connected = new ArrayList<>();

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
        api = new AuthApi(cluster.sessionApiUrl());
    }

    @AfterEach
    void disconnect() {
        for (Mqtt5BlockingClient c : connected) {
            if (c.getState().isConnected()) {
                c.disconnect();
            }
        }
    }

    /** A tenant with {@code quotas}, and its user (returned) allowed everything in its namespace. */
    private static String tenant(String tenant, Map<String, Integer> quotas) throws Exception {
        api.createTenantWithQuotas(tenant, quotas);
        String user = Clients.id("uq");
        api.create(AuthApi.credential(user, PASSWORD, tenant, List.of("#")));
        return user;
    }

    /** One MQTT 5 CONNECT through {@code node}: null when accepted (the client stays connected), else the reason. */
    private Mqtt5ConnAckReasonCode connect(int node, String clientId, String user, long expiry, boolean cleanStart) {
        Mqtt5BlockingClient client = Clients.hive5(cluster.mqttPort(node), clientId);
        try {
            Mqtt5ConnAck ack = client.connectWith()
                    .cleanStart(cleanStart)
                    .sessionExpiryInterval(expiry)
                    .simpleAuth()
                    .username(user)
                    .password(PASSWORD.getBytes(StandardCharsets.UTF_8))
                    .applySimpleAuth()
                    .send();
            synchronized (connected) {
                connected.add(client);
            }
            assertThat(ack.getReasonCode()).isEqualTo(Mqtt5ConnAckReasonCode.SUCCESS);
            return null;
        } catch (Mqtt5ConnAckException e) {
            return e.getMqttMessage().getReasonCode();
        }
    }

    /** {@code n} CONNECTs of new clients, alternately through node 0 and node 1, all released at the same moment. */
    private List<Mqtt5ConnAckReasonCode> connectAtOnce(int n, String user, long expiry) throws Exception {
        List<Callable<Mqtt5ConnAckReasonCode>> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int node = i % 2;
            calls.add(() -> connect(node, Clients.id("tq"), user, expiry, true));
        }
        return atOnce(calls);
    }

    private static <T> List<T> atOnce(List<Callable<T>> calls) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(calls.size());
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<T>> futures = new ArrayList<>();
            for (Callable<T> call : calls) {
                futures.add(pool.submit(() -> {
                    start.await();
                    return call.call();
                }));
            }
            start.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> f : futures) {
                results.add(f.get(30, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    /** The return code a Paho MQTT 3.1.1 CONNECT through {@code node} is refused with. */
    private static int paho3Refusal(int node, String user, boolean cleanSession) throws Exception {
        MqttClient client =
                new MqttClient("tcp://127.0.0.1:" + cluster.mqttPort(node), Clients.id("tq3"), new MemoryPersistence());
        MqttConnectOptions options = Clients.paho3Options(MqttConnectOptions.MQTT_VERSION_3_1_1);
        options.setCleanSession(cleanSession);
        options.setUserName(user);
        options.setPassword(PASSWORD.toCharArray());
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

    /** How many refusals session-service counted for {@code tenant}'s {@code quota}. */
    private static double refusalsCounted(String tenant, String quota) throws Exception {
        String scrape = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(cluster.sessionManagementUrl() + "/actuator/prometheus"))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        Matcher m = Pattern.compile("tributary_tenant_quota_refusals_total\\{[^}]*quota=\"" + quota + "\"[^}]*tenant=\""
                        + Pattern.quote(tenant) + "\"[^}]*} ([0-9.E]+)")
                .matcher(scrape);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    private static long count(List<Mqtt5ConnAckReasonCode> codes, Mqtt5ConnAckReasonCode code) {
        return codes.stream().filter(c -> c == code).count();
    }

    @Test
    void the_session_quota_refuses_new_persistent_sessions_on_both_nodes_at_once_and_never_a_resumed_one()
            throws Exception {
        String tenant = Clients.id("tqs");
        String user = tenant(tenant, Map.of("maxSessions", 2));
        List<Mqtt5ConnAckReasonCode> codes = connectAtOnce(6, user, 600);
        assertThat(count(codes, null)).as("%s", codes).isEqualTo(2);
        assertThat(count(codes, Mqtt5ConnAckReasonCode.QUOTA_EXCEEDED))
                .as("%s", codes)
                .isEqualTo(4);
        assertThat(paho3Refusal(0, user, false))
                .as("MQTT 3.1.1 clean session 0: 3")
                .isEqualTo(3);

        // Sessions that end with their connection are not counted; a stored session is resumed on the other node.
        assertThat(connect(1, Clients.id("tqs-clean"), user, 0, true)).isNull();
        Mqtt5BlockingClient holder = connected.get(0);
        String holderId = holder.getConfig().getClientIdentifier().orElseThrow().toString();
        int holderNode = holder.getConfig().getServerPort() == cluster.mqttPort(0) ? 0 : 1;
        holder.disconnect();
        Mqtt5BlockingClient resumed = Clients.hive5(cluster.mqttPort(1 - holderNode), holderId);
        Mqtt5ConnAck ack = resumed.connectWith()
                .cleanStart(false)
                .sessionExpiryInterval(600)
                .simpleAuth()
                .username(user)
                .password(PASSWORD.getBytes(StandardCharsets.UTF_8))
                .applySimpleAuth()
                .send();
        connected.add(resumed);
        assertThat(ack.isSessionPresent()).isTrue();
        assertThat(api.tenant(tenant).path("sessions").asLong()).isEqualTo(2);
        assertThat(refusalsCounted(tenant, "sessions")).isEqualTo(5.0);
    }

    @Test
    void the_subscription_quota_refuses_the_filters_beyond_it_subscribed_on_both_nodes_at_once() throws Exception {
        String tenant = Clients.id("tqb");
        String user = tenant(tenant, Map.of("maxSubscriptions", 5));
        List<Mqtt5BlockingClient> subscribers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            assertThat(connect(i % 2, Clients.id("tqb"), user, 0, true)).isNull();
            subscribers.add(connected.get(connected.size() - 1));
        }
        // Four SUBSCRIBEs of two filters each, two through each node, sent together: five places.
        List<CompletableFuture<List<Mqtt5SubAckReasonCode>>> acks = new ArrayList<>();
        for (int i = 0; i < subscribers.size(); i++) {
            acks.add(subscribe(subscribers.get(i), "s" + i + "/a", "s" + i + "/b"));
        }
        List<Mqtt5SubAckReasonCode> codes = new ArrayList<>();
        for (CompletableFuture<List<Mqtt5SubAckReasonCode>> ack : acks) {
            codes.addAll(ack.get(30, TimeUnit.SECONDS));
        }
        assertThat(codes.stream().filter(c -> c == Mqtt5SubAckReasonCode.GRANTED_QOS_1))
                .as("%s", codes)
                .hasSize(5);
        assertThat(codes.stream().filter(c -> c == Mqtt5SubAckReasonCode.QUOTA_EXCEEDED))
                .as("%s", codes)
                .hasSize(3);

        // A granted filter subscribed again replaces its subscription: not refused, not counted twice.
        int granted = codes.indexOf(Mqtt5SubAckReasonCode.GRANTED_QOS_1);
        Mqtt5BlockingClient again = subscribers.get(granted / 2);
        assertThat(subscribe(again, "s" + (granted / 2) + (granted % 2 == 0 ? "/a" : "/b"))
                        .get(30, TimeUnit.SECONDS))
                .containsExactly(Mqtt5SubAckReasonCode.GRANTED_QOS_1);

        // MQTT 3.1.1 has one failure code: 0x80.
        MqttClient paho =
                new MqttClient("tcp://127.0.0.1:" + cluster.mqttPort(1), Clients.id("tqb3"), new MemoryPersistence());
        MqttConnectOptions options = Clients.paho3Options(MqttConnectOptions.MQTT_VERSION_3_1_1);
        options.setUserName(user);
        options.setPassword(PASSWORD.toCharArray());
        paho.connect(options);
        try {
            IMqttToken token = paho.subscribeWithResponse(new String[] {"p/1", "p/2"}, new int[] {1, 1});
            assertThat(token.getGrantedQos()).containsExactly(0x80, 0x80);
        } finally {
            paho.disconnect();
            paho.close();
        }
        assertThat(api.tenant(tenant).path("subscriptions").asLong()).isEqualTo(5);
        assertThat(refusalsCounted(tenant, "subscriptions")).isEqualTo(5.0);
    }

    private static CompletableFuture<List<Mqtt5SubAckReasonCode>> subscribe(
            Mqtt5BlockingClient client, String... filters) {
        Mqtt5SubscribeBuilder.Start builder = Mqtt5Subscribe.builder();
        Mqtt5SubscribeBuilder.Complete complete = null;
        for (String f : filters) {
            complete = (complete == null ? builder : complete)
                    .addSubscription()
                    .topicFilter(f)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .applySubscription();
        }
        return client.toAsync().subscribe(complete.build()).handle((ack, failure) -> {
            if (failure == null) {
                return List.copyOf(ack.getReasonCodes());
            }
            Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
            if (cause instanceof Mqtt5SubAckException e) {
                return List.copyOf(e.getMqttMessage().getReasonCodes());
            }
            throw new CompletionException(cause);
        });
    }

    @Test
    void the_connect_rate_refuses_connects_beyond_it_on_both_nodes_at_once_with_0x9f() throws Exception {
        String tenant = Clients.id("tqr");
        String user = tenant(tenant, Map.of("connectRate", 2));
        long first = System.currentTimeMillis() / 1000;
        List<Mqtt5ConnAckReasonCode> codes = connectAtOnce(10, user, 0);
        long windows = System.currentTimeMillis() / 1000 - first + 1;
        long admitted = count(codes, null);
        long refused = count(codes, Mqtt5ConnAckReasonCode.CONNECTION_RATE_EXCEEDED);
        assertThat(admitted + refused).as("%s", codes).isEqualTo(10);
        assertThat(admitted)
                .as("%s: 2 per second over %d second(s)", codes, windows)
                .isBetween(1L, 2 * windows);
        assertThat(refused).as("%s", codes).isPositive();

        // A rate of 0 admits none: the exact codes on both nodes, MQTT 5 and 3.1.1.
        String closed = Clients.id("tqr0");
        String closedUser = tenant(closed, Map.of("connectRate", 0));
        assertThat(connect(0, Clients.id("tqr0"), closedUser, 0, true))
                .isEqualTo(Mqtt5ConnAckReasonCode.CONNECTION_RATE_EXCEEDED);
        assertThat(connect(1, Clients.id("tqr0"), closedUser, 0, true))
                .isEqualTo(Mqtt5ConnAckReasonCode.CONNECTION_RATE_EXCEEDED);
        assertThat(paho3Refusal(1, closedUser, true)).as("MQTT 3.1.1: 3").isEqualTo(3);
        assertThat(refusalsCounted(tenant, "connect_rate")).isEqualTo((double) refused);
        assertThat(refusalsCounted(closed, "connect_rate")).isEqualTo(3.0);
    }
}
