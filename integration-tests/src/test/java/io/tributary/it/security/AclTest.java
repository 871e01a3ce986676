package io.tributary.it.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5ConnAckException;
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
import io.tributary.it.support.TributaryCluster;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Per-credential ACLs with placeholders, enforced by the transport node holding the connection: denied publishes are
 * refused (MQTT 5) or dropped (3.1.1) and never delivered, denied subscriptions are refused and never delivered to,
 * wills outside the ACL are refused at CONNECT, and an ACL change closes the connection so the new ACL applies.
 * Observers are anonymous clients on the other node (the shared cluster allows them).
 */
@ExtendWith(LogsOnFailure.class)
class AclTest {

    private static TributaryCluster cluster;
    private static AuthApi api;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
        api = new AuthApi(cluster.sessionApiUrl());
    }

    private static Mqtt5BlockingClient observer(String filter) {
        Mqtt5BlockingClient observer = Clients.hive5(cluster.mqttPort(1), Clients.id("acl-obs"));
        observer.connect();
        observer.subscribeWith().topicFilter(filter).qos(MqttQos.AT_LEAST_ONCE).send();
        return observer;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void mqtt5_publish_outside_the_acl_gets_0x87_and_is_not_delivered() throws Exception {
        String user = Clients.id("acl-pub");
        String root = Clients.id("aclp");
        api.create(AuthApi.credential(user, null, "pw", List.of(root + "/%u/%c/#"), List.of()));
        Mqtt5BlockingClient observer = observer(root + "/#");
        try (Mqtt5BlockingClient.Mqtt5Publishes received = observer.publishes(MqttGlobalPublishFilter.ALL)) {
            String clientId = Clients.id("acl-pub");
            Mqtt5BlockingClient publisher = Clients.hive5(cluster.mqttPort(0), clientId);
            AuthenticationTest.connect(publisher, user, "pw");

            assertThatThrownBy(() -> publisher
                            .publishWith()
                            .topic(root + "/someone-else/x")
                            .qos(MqttQos.AT_LEAST_ONCE)
                            .payload(bytes("denied"))
                            .send())
                    .isInstanceOfSatisfying(
                            Mqtt5PubAckException.class,
                            e -> assertThat(e.getMqttMessage().getReasonCode())
                                    .isEqualTo(Mqtt5PubAckReasonCode.NOT_AUTHORIZED));
            // A retained publish goes through the same ACL.
            assertThatThrownBy(() -> publisher
                            .publishWith()
                            .topic(root + "/retained")
                            .retain(true)
                            .qos(MqttQos.AT_LEAST_ONCE)
                            .payload(bytes("denied"))
                            .send())
                    .isInstanceOf(Mqtt5PubAckException.class);
            publisher
                    .publishWith()
                    .topic(root + "/" + user + "/" + clientId + "/power")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .payload(bytes("allowed"))
                    .send();

            Optional<Mqtt5Publish> first = received.receive(15, TimeUnit.SECONDS);
            assertThat(first).isPresent();
            assertThat(new String(first.get().getPayloadAsBytes(), StandardCharsets.UTF_8))
                    .isEqualTo("allowed");
            assertThat(received.receive(2, TimeUnit.SECONDS))
                    .as("denied publishes are never delivered")
                    .isEmpty();
            publisher.disconnect();
        } finally {
            observer.disconnect();
        }
    }

    @Test
    void mqtt311_publish_outside_the_acl_is_acknowledged_but_dropped() throws Exception {
        String user = Clients.id("acl-p3");
        String root = Clients.id("aclq");
        api.create(AuthApi.credential(user, null, "pw", List.of(root + "/ok"), List.of()));
        Mqtt5BlockingClient observer = observer(root + "/#");
        try (Mqtt5BlockingClient.Mqtt5Publishes received = observer.publishes(MqttGlobalPublishFilter.ALL)) {
            MqttClient paho = new MqttClient(
                    "tcp://127.0.0.1:" + cluster.mqttPort(0), Clients.id("acl-p3"), new MemoryPersistence());
            MqttConnectOptions options = Clients.paho3Options(MqttConnectOptions.MQTT_VERSION_3_1_1);
            options.setUserName(user);
            options.setPassword("pw".toCharArray());
            paho.connect(options);
            // QoS 1 and 2 complete normally (MQTT 3.1.1 has no negative acknowledgement) and the client stays.
            paho.publish(root + "/denied", bytes("denied"), 1, false);
            paho.publish(root + "/denied", bytes("denied"), 2, false);
            paho.publish(root + "/ok", bytes("allowed"), 1, false);
            assertThat(paho.isConnected()).isTrue();

            Optional<Mqtt5Publish> first = received.receive(15, TimeUnit.SECONDS);
            assertThat(first).isPresent();
            assertThat(new String(first.get().getPayloadAsBytes(), StandardCharsets.UTF_8))
                    .isEqualTo("allowed");
            assertThat(received.receive(2, TimeUnit.SECONDS)).isEmpty();
            paho.disconnect();
            paho.close();
        } finally {
            observer.disconnect();
        }
    }

    @Test
    void subscriptions_outside_the_acl_get_0x87_in_mqtt5_and_0x80_in_mqtt311_and_receive_nothing() throws Exception {
        String user = Clients.id("acl-sub");
        String root = Clients.id("acls");
        api.create(AuthApi.credential(user, null, "pw", List.of(), List.of(root + "/public/#")));

        Mqtt5BlockingClient subscriber = Clients.hive5(cluster.mqttPort(0), Clients.id("acl-sub"));
        AuthenticationTest.connect(subscriber, user, "pw");
        try (Mqtt5BlockingClient.Mqtt5Publishes received = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
            List<Mqtt5SubAckReasonCode> codes;
            try {
                codes = subscriber
                        .subscribeWith()
                        .topicFilter(root + "/#")
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .send()
                        .getReasonCodes();
            } catch (Mqtt5SubAckException e) {
                codes = e.getMqttMessage().getReasonCodes();
            }
            assertThat(codes).containsExactly(Mqtt5SubAckReasonCode.NOT_AUTHORIZED);
            subscriber
                    .subscribeWith()
                    .topicFilter(root + "/public/+")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();

            String paho3Id = Clients.id("acl-s3");
            MqttClient paho =
                    new MqttClient("tcp://127.0.0.1:" + cluster.mqttPort(1), paho3Id, new MemoryPersistence());
            MqttConnectOptions options = Clients.paho3Options(MqttConnectOptions.MQTT_VERSION_3_1_1);
            options.setUserName(user);
            options.setPassword("pw".toCharArray());
            paho.connect(options);
            int granted;
            try {
                granted = paho.subscribeWithResponse(root + "/secret", 1).getGrantedQos()[0];
            } catch (MqttException e) {
                granted = e.getReasonCode();
            }
            assertThat(granted).as("MQTT 3.1.1 SUBACK failure").isEqualTo(0x80);
            paho.disconnect();
            paho.close();

            Mqtt5BlockingClient publisher = Clients.hive5(cluster.mqttPort(1), Clients.id("acl-anon"));
            publisher.connect();
            publisher
                    .publishWith()
                    .topic(root + "/secret")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .payload(bytes("secret"))
                    .send();
            publisher
                    .publishWith()
                    .topic(root + "/public/news")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .payload(bytes("news"))
                    .send();
            publisher.disconnect();

            Optional<Mqtt5Publish> first = received.receive(15, TimeUnit.SECONDS);
            assertThat(first).isPresent();
            assertThat(first.get().getTopic().toString()).isEqualTo(root + "/public/news");
            assertThat(received.receive(2, TimeUnit.SECONDS))
                    .as("nothing from the refused filter")
                    .isEmpty();
        } finally {
            subscriber.disconnect();
        }
    }

    @Test
    void will_topic_outside_the_acl_is_refused_at_connect() throws Exception {
        String user = Clients.id("acl-will");
        String root = Clients.id("aclw");
        api.create(AuthApi.credential(user, null, "pw", List.of(root + "/%c/status"), List.of()));
        String clientId = Clients.id("acl-will");

        Mqtt5BlockingClient denied = Clients.hive5(cluster.mqttPort(0), clientId);
        assertThatThrownBy(() -> denied.connectWith()
                        .simpleAuth()
                        .username(user)
                        .password(bytes("pw"))
                        .applySimpleAuth()
                        .willPublish()
                        .topic(root + "/other/status")
                        .payload(bytes("gone"))
                        .applyWillPublish()
                        .send())
                .isInstanceOfSatisfying(
                        Mqtt5ConnAckException.class,
                        e -> assertThat(e.getMqttMessage().getReasonCode())
                                .isEqualTo(Mqtt5ConnAckReasonCode.NOT_AUTHORIZED));

        Mqtt5BlockingClient allowed = Clients.hive5(cluster.mqttPort(0), clientId);
        allowed.connectWith()
                .simpleAuth()
                .username(user)
                .password(bytes("pw"))
                .applySimpleAuth()
                .willPublish()
                .topic(root + "/" + clientId + "/status")
                .payload(bytes("gone"))
                .applyWillPublish()
                .send();
        allowed.disconnect();
    }

    @Test
    void changing_the_acl_disconnects_the_client_0x98_and_the_new_acl_applies_on_reconnect() throws Exception {
        String user = Clients.id("acl-chg");
        String root = Clients.id("aclc");
        long id = api.create(AuthApi.credential(user, null, "pw", List.of(root + "/a"), List.of()));
        String clientId = Clients.id("acl-chg");
        CompletableFuture<Throwable> closed = new CompletableFuture<>();
        Mqtt5BlockingClient client = AuthenticationTest.hive(cluster.mqttPort(1), clientId, closed);
        AuthenticationTest.connect(client, user, "pw");
        assertThatThrownBy(() -> client.publishWith()
                        .topic(root + "/b")
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .payload(bytes("x"))
                        .send())
                .isInstanceOf(Mqtt5PubAckException.class);

        api.update(id, AuthApi.credential(user, null, null, List.of(root + "/b"), List.of()));

        Throwable cause = closed.get(15, TimeUnit.SECONDS);
        assertThat(((Mqtt5DisconnectException) cause).getMqttMessage().getReasonCode())
                .isEqualTo(Mqtt5DisconnectReasonCode.ADMINISTRATIVE_ACTION);
        Mqtt5BlockingClient again = Clients.hive5(cluster.mqttPort(0), clientId);
        AuthenticationTest.connect(again, user, "pw");
        again.publishWith()
                .topic(root + "/b")
                .qos(MqttQos.AT_LEAST_ONCE)
                .payload(bytes("now allowed"))
                .send();
        assertThatThrownBy(() -> again.publishWith()
                        .topic(root + "/a")
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .payload(bytes("x"))
                        .send())
                .isInstanceOf(Mqtt5PubAckException.class);
        again.disconnect();
    }

    /**
     * Replay (issue 16) reads only what the subscriber may read: the SUBSCRIBE's ACL check applies to the filter
     * asking for history, so a filter reaching beyond the ACL is refused (0x87) with no history, and one inside it
     * replays only its own topics.
     */
    @Test
    void replay_gives_only_history_the_acl_lets_the_subscriber_read() throws Exception {
        String user = Clients.id("acl-rp");
        String root = Clients.id("aclr");
        api.create(AuthApi.credential(user, null, "pw", List.of(), List.of(root + "/public/#")));
        Mqtt5BlockingClient publisher = Clients.hive5(cluster.mqttPort(1), Clients.id("acl-rpub"));
        publisher.connect();
        publisher
                .publishWith()
                .topic(root + "/secret")
                .qos(MqttQos.AT_LEAST_ONCE)
                .payload(bytes("secret"))
                .send();
        publisher
                .publishWith()
                .topic(root + "/public/news")
                .qos(MqttQos.AT_LEAST_ONCE)
                .payload(bytes("news"))
                .send();
        publisher.disconnect();

        Mqtt5BlockingClient subscriber = Clients.hive5(cluster.mqttPort(0), Clients.id("acl-rsub"));
        AuthenticationTest.connect(subscriber, user, "pw");
        try (Mqtt5BlockingClient.Mqtt5Publishes received = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
            List<Mqtt5SubAckReasonCode> codes;
            try {
                codes = subscriber
                        .subscribeWith()
                        .topicFilter(root + "/#")
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .userProperties()
                        .add("replay-last", "10")
                        .applyUserProperties()
                        .send()
                        .getReasonCodes();
            } catch (Mqtt5SubAckException e) {
                codes = e.getMqttMessage().getReasonCodes();
            }
            assertThat(codes).containsExactly(Mqtt5SubAckReasonCode.NOT_AUTHORIZED);
            assertThat(received.receive(2, TimeUnit.SECONDS))
                    .as("no history through a refused filter")
                    .isEmpty();

            subscriber
                    .subscribeWith()
                    .topicFilter(root + "/public/+")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .userProperties()
                    .add("replay-last", "10")
                    .applyUserProperties()
                    .send();
            Optional<Mqtt5Publish> first = received.receive(15, TimeUnit.SECONDS);
            assertThat(first).isPresent();
            assertThat(first.get().getTopic().toString()).isEqualTo(root + "/public/news");
            assertThat(received.receive(2, TimeUnit.SECONDS))
                    .as("nothing outside the ACL")
                    .isEmpty();
        } finally {
            subscriber.disconnect();
        }
    }
}
