package io.tributary.it.mqtt;

import static io.tributary.it.support.Clients.hive5;
import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.TributaryCluster;
import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * MQTT 5 Message Expiry Interval (3.3.2.3.3) for a persistent subscriber that is offline: a message whose interval
 * runs out while it waits in the session queue is never delivered; one that is still valid is delivered with the
 * interval reduced by the time it waited.
 */
@ExtendWith(LogsOnFailure.class)
class MessageExpiryTest {

    private static final long SESSION_EXPIRY = 300;

    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    @Test
    void expired_message_is_never_delivered_to_a_returning_subscriber_and_a_valid_one_has_its_remaining_interval()
            throws Exception {
        String clientId = id("exp");
        String topic = "it/expiry/" + id("t");
        Mqtt5BlockingClient away = hive5(cluster.mqttPort(0), clientId);
        away.connectWith()
                .cleanStart(true)
                .sessionExpiryInterval(SESSION_EXPIRY)
                .send();
        away.subscribeWith().topicFilter(topic).qos(MqttQos.AT_LEAST_ONCE).send();
        away.disconnect();

        Mqtt5BlockingClient publisher = hive5(cluster.mqttPort(1), id("pub"));
        publisher.connect();
        long publishedAt = System.nanoTime();
        try {
            publisher
                    .publishWith()
                    .topic(topic)
                    .payload(bytes("short"))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .messageExpiryInterval(2)
                    .send();
            long longSentAt = System.nanoTime();
            publisher
                    .publishWith()
                    .topic(topic)
                    .payload(bytes("long"))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .messageExpiryInterval(60)
                    .send();
            long longAckedAt = System.nanoTime();

            // The subscriber stays away for 4 s: the 2 s message expires in its session queue meanwhile.
            long awayNanos = TimeUnit.SECONDS.toNanos(4) - (System.nanoTime() - publishedAt);
            if (awayNanos > 0) {
                TimeUnit.NANOSECONDS.sleep(awayNanos);
            }
            Mqtt5BlockingClient back = hive5(cluster.mqttPort(1), clientId);
            try (Mqtt5BlockingClient.Mqtt5Publishes in = back.publishes(MqttGlobalPublishFilter.ALL)) {
                assertThat(back.connectWith()
                                .cleanStart(false)
                                .sessionExpiryInterval(SESSION_EXPIRY)
                                .send()
                                .isSessionPresent())
                        .isTrue();
                Mqtt5Publish first = in.receive(15, TimeUnit.SECONDS)
                        .orElseThrow(() -> new AssertionError("the 60 s message did not arrive"));
                // Queued in publish order: had the expired message been delivered, it would have come first.
                assertThat(text(first)).isEqualTo("long");
                OptionalLong remaining = first.getMessageExpiryInterval();
                long now = System.nanoTime();
                // The broker counts from when it received the 60 s message: after it was sent, before its PUBACK
                // (which can come a second or more after the first message's, on a loaded machine).
                long waitedAtMost = TimeUnit.NANOSECONDS.toSeconds(now - longSentAt);
                long waitedAtLeast = TimeUnit.NANOSECONDS.toSeconds(now - longAckedAt);
                assertThat(waitedAtMost)
                        .as("the subscriber stayed away about 4 s")
                        .isGreaterThanOrEqualTo(3);
                assertThat(remaining).isPresent();
                assertThat(remaining.getAsLong())
                        .as("60 s minus the %d..%d s it waited", waitedAtLeast, waitedAtMost)
                        .isBetween(60 - waitedAtMost - 1, 60 - waitedAtLeast);

                // Live traffic after the queue: nothing else was waiting in it.
                publisher
                        .publishWith()
                        .topic(topic)
                        .payload(bytes("live"))
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .send();
                Mqtt5Publish next = in.receive(15, TimeUnit.SECONDS)
                        .orElseThrow(() -> new AssertionError("the live message did not arrive"));
                assertThat(text(next)).isEqualTo("live");
                assertThat(next.getMessageExpiryInterval()).isEmpty();
            } finally {
                back.disconnectWith().sessionExpiryInterval(0).send();
            }
        } finally {
            publisher.disconnect();
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(Mqtt5Publish p) {
        return new String(p.getPayloadAsBytes(), StandardCharsets.UTF_8);
    }
}
