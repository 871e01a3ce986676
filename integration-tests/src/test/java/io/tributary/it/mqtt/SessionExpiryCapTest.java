package io.tributary.it.mqtt;

import static io.tributary.it.support.Clients.id;
import static io.tributary.it.support.Clients.paho3Options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.connect.connack.Mqtt5ConnAck;
import io.tributary.it.support.AdminRequests;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.TributaryCluster;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The maximum session expiry ({@code SESSION_EXPIRY_MAX}, 7 days by default) over MQTT (issue 34): an MQTT 5 client
 * asking for more is told the maximum in CONNACK (MQTT 5 3.2.2.3.2), one asking for less is not told anything, and an
 * MQTT 3.1.1 persistent session, which never expired, expires after the maximum.
 */
@ExtendWith(LogsOnFailure.class)
class SessionExpiryCapTest {

    private static final long MAX = Duration.ofDays(7).toSeconds();

    private static TributaryCluster cluster;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    private static Mqtt5BlockingClient hive(String clientId) {
        return com.hivemq.client.mqtt.MqttClient.builder()
                .useMqttVersion5()
                .identifier(clientId)
                .serverHost("127.0.0.1")
                .serverPort(cluster.mqttPort(0))
                .buildBlocking();
    }

    @Test
    void mqtt5_asking_for_never_gets_the_maximum_in_connack_and_less_is_kept() {
        Mqtt5BlockingClient never = hive(id("exp-never"));
        Mqtt5ConnAck ack = never.connectWith()
                .cleanStart(true)
                .sessionExpiryInterval(0xFFFFFFFFL)
                .send();
        never.disconnect();
        assertThat(ack.getSessionExpiryInterval()).hasValue(MAX);

        Mqtt5BlockingClient hour = hive(id("exp-hour"));
        Mqtt5ConnAck kept =
                hour.connectWith().cleanStart(true).sessionExpiryInterval(3600).send();
        hour.disconnect();
        assertThat(kept.getSessionExpiryInterval()).as("as asked: not repeated").isEmpty();
    }

    @Test
    void an_mqtt311_persistent_session_expires_after_the_maximum() throws Exception {
        String clientId = id("exp311");
        MqttClient client = new MqttClient("tcp://127.0.0.1:" + cluster.mqttPort(1), clientId, new MemoryPersistence());
        MqttConnectOptions options = paho3Options(MqttConnectOptions.MQTT_VERSION_3_1_1);
        options.setCleanSession(false);
        client.connect(options);
        Instant left = Instant.now();
        client.disconnect();
        client.close();

        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        String expiresAt = null;
        while (expiresAt == null && System.nanoTime() < deadline) {
            HttpResponse<String> response = http.send(
                    AdminRequests.to(cluster.sessionApiUrl(), "/api/v1/sessions/" + clientId)
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            Matcher m = Pattern.compile("\"expiresAt\"\\s*:\\s*\"([^\"]+)\"").matcher(response.body());
            if (m.find()) {
                expiresAt = m.group(1);
            } else {
                Thread.sleep(100);
            }
        }
        assertThat(expiresAt).as("the offline session has an expiry").isNotNull();
        assertThat(Instant.parse(expiresAt)).isCloseTo(left.plusSeconds(MAX), within(60, ChronoUnit.SECONDS));
    }
}
