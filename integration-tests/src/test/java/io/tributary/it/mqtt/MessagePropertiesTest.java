package io.tributary.it.mqtt;

import static io.tributary.it.support.Clients.hive5;
import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5PubAckException;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5PayloadFormatIndicator;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import com.hivemq.client.mqtt.mqtt5.message.publish.puback.Mqtt5PubAck;
import com.hivemq.client.mqtt.mqtt5.message.publish.puback.Mqtt5PubAckReasonCode;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.Mqtt5Packets;
import io.tributary.it.support.Mqtt5Packets.Property;
import io.tributary.it.support.RawMqtt;
import io.tributary.it.support.TributaryCluster;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** MQTT 5 message properties the broker acts on: payload format indicator, message expiry; problem information. */
@ExtendWith(LogsOnFailure.class)
class MessagePropertiesTest {

    /** 0xC3 must be followed by a continuation byte; 0x28 is not one. */
    private static final byte[] NOT_UTF8 = {'o', 'k', (byte) 0xC3, 0x28};

    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    /** The HiveMQ client sends the payload as given (it does not check it), and reports the negative PUBACK. */
    private static Mqtt5PubAck publishNotUtf8(Mqtt5BlockingClient publisher, String topic) {
        try {
            publisher
                    .publishWith()
                    .topic(topic)
                    .payload(NOT_UTF8)
                    .payloadFormatIndicator(Mqtt5PayloadFormatIndicator.UTF_8)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
        } catch (Mqtt5PubAckException e) {
            return e.getMqttMessage();
        }
        throw new AssertionError("PUBACK was positive");
    }

    @Test
    void payload_not_utf8_despite_the_indicator_is_refused_0x99_and_not_delivered() throws Exception {
        String topic = "it/pfi/" + id("t");
        Mqtt5BlockingClient subscriber = hive5(cluster.mqttPort(0), id("sub"));
        Mqtt5BlockingClient publisher = hive5(cluster.mqttPort(1), id("pub"));
        subscriber.connect();
        publisher.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes in = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
            subscriber
                    .subscribeWith()
                    .topicFilter(topic)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            Mqtt5PubAck ack = publishNotUtf8(publisher, topic);
            assertThat(ack.getReasonCode()).isEqualTo(Mqtt5PubAckReasonCode.PAYLOAD_FORMAT_INVALID);
            assertThat(ack.getReasonString())
                    .as("reason string, since problem information is requested")
                    .isPresent();
            assertThat(publisher.getState().isConnected())
                    .as("a refused PUBLISH keeps the connection")
                    .isTrue();

            publisher
                    .publishWith()
                    .topic(topic)
                    .payload("valid ü".getBytes(StandardCharsets.UTF_8))
                    .payloadFormatIndicator(Mqtt5PayloadFormatIndicator.UTF_8)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            Mqtt5Publish delivered = in.receive(15, TimeUnit.SECONDS).orElseThrow();
            assertThat(delivered.getPayloadAsBytes())
                    .as("only the valid message arrives")
                    .isEqualTo("valid ü".getBytes(StandardCharsets.UTF_8));
            assertThat(delivered.getPayloadFormatIndicator()).contains(Mqtt5PayloadFormatIndicator.UTF_8);
            assertThat(in.receive(1, TimeUnit.SECONDS)).isEmpty();
        } finally {
            publisher.disconnect();
            subscriber.disconnect();
        }
    }

    /**
     * MQTT 5 section 3.3.2.3.5 [MQTT-3.3.2-14]: a Response Topic with a wildcard is a protocol error. Forwarded, it
     * made the subscribers' own clients (HiveMQ's among them) close their connections on it; refused, the
     * publisher alone is closed with 0x82 and nothing reaches the subscriber. The same for a will's.
     */
    @Test
    void a_response_topic_with_a_wildcard_closes_the_publisher_only() throws Exception {
        String topic = "it/rt/" + id("t");
        Mqtt5BlockingClient subscriber = hive5(cluster.mqttPort(0), id("sub"));
        subscriber.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes in = subscriber.publishes(MqttGlobalPublishFilter.ALL);
                RawMqtt publisher = new RawMqtt(cluster.mqttPort(1));
                RawMqtt willer = new RawMqtt(cluster.mqttPort(1))) {
            subscriber
                    .subscribeWith()
                    .topicFilter(topic)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            publisher.send(Mqtt5Packets.connect(id("raw-rt"), 60));
            assertThat(Mqtt5Packets.reasonCode(publisher.readPacket(10_000))).isZero();
            publisher.send(Mqtt5Packets.publish(
                    topic, 1, 1, "req".getBytes(StandardCharsets.UTF_8), Property.responseTopic("replies/+")));
            byte[] disconnect = publisher.readPacket(10_000);
            assertThat(Mqtt5Packets.type(disconnect))
                    .as("DISCONNECT, no PUBACK")
                    .isEqualTo(14);
            assertThat(Mqtt5Packets.reasonCode(disconnect)).isEqualTo(0x82);

            willer.send(Mqtt5Packets.connectWithWill(
                    id("raw-rt-will"),
                    60,
                    topic,
                    "gone".getBytes(StandardCharsets.UTF_8),
                    Property.responseTopic("replies/#")));
            byte[] connack = willer.readPacket(10_000);
            assertThat(Mqtt5Packets.type(connack)).isEqualTo(2);
            assertThat(Mqtt5Packets.reasonCode(connack))
                    .as("CONNACK protocol error")
                    .isEqualTo(0x82);

            assertThat(in.receive(2, TimeUnit.SECONDS)).as("nothing forwarded").isEmpty();
            assertThat(subscriber.getState().isConnected()).isTrue();
        } finally {
            subscriber.disconnect();
        }
    }

    @Test
    void request_problem_information_0_gets_no_reason_string_on_acknowledgements() {
        Mqtt5BlockingClient publisher = hive5(cluster.mqttPort(0), id("quiet"));
        publisher
                .connectWith()
                .restrictions()
                .requestProblemInformation(false)
                .applyRestrictions()
                .send();
        try {
            Mqtt5PubAck ack = publishNotUtf8(publisher, "it/pfi/" + id("t"));
            assertThat(ack.getReasonCode()).isEqualTo(Mqtt5PubAckReasonCode.PAYLOAD_FORMAT_INVALID);
            assertThat(ack.getReasonString()).isEmpty();
            assertThat(ack.getUserProperties().asList()).isEmpty();
        } finally {
            publisher.disconnect();
        }
    }

    @Test
    void message_expiry_is_forwarded_as_the_remaining_interval() throws Exception {
        String topic = "it/expiry/" + id("t");
        long sent = 120;
        Mqtt5BlockingClient subscriber = hive5(cluster.mqttPort(0), id("sub"));
        Mqtt5BlockingClient publisher = hive5(cluster.mqttPort(1), id("pub"));
        subscriber.connect();
        publisher.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes in = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
            subscriber
                    .subscribeWith()
                    .topicFilter(topic)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            publisher
                    .publishWith()
                    .topic(topic)
                    .payload("e".getBytes(StandardCharsets.UTF_8))
                    .messageExpiryInterval(sent)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            publisher
                    .publishWith()
                    .topic(topic)
                    .payload("forever".getBytes(StandardCharsets.UTF_8))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            Mqtt5Publish expiring = in.receive(15, TimeUnit.SECONDS).orElseThrow();
            assertThat(expiring.getMessageExpiryInterval()).isPresent();
            assertThat(expiring.getMessageExpiryInterval().getAsLong()).isBetween(1L, sent);
            Mqtt5Publish forever = in.receive(15, TimeUnit.SECONDS).orElseThrow();
            assertThat(forever.getMessageExpiryInterval())
                    .as("no expiry stays no expiry")
                    .isEmpty();
        } finally {
            publisher.disconnect();
            subscriber.disconnect();
        }
    }
}
