package io.tributary.it.security;

import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import io.tributary.devstack.redis.RedisCommand;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.TributaryCluster;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Redis answers only authenticated clients (issue 34, "Redis without a password"): the cluster's Redis refuses a
 * client without credentials, with a wrong password, and the passwordless {@code default} user, while all three
 * services are connected to it as its one user and a persistent session's queue in it works end to end.
 */
@ExtendWith(LogsOnFailure.class)
class RedisAuthenticationTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private static TributaryCluster cluster;
    private static String address;
    private static String password;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
        URI url = URI.create(cluster.redisUrl());
        address = "redis://" + url.getHost() + ":" + url.getPort();
        String userInfo = url.getUserInfo();
        assertThat(userInfo).as("the services' Redis URL carries credentials").contains(":");
        password = userInfo.substring(userInfo.indexOf(':') + 1);
    }

    @Test
    void a_client_without_credentials_is_refused_every_command() throws Exception {
        assertThat(RedisCommand.firstReplyLine(address, TIMEOUT, "PING")).startsWith("-NOAUTH");
        assertThat(RedisCommand.firstReplyLine(address, TIMEOUT, "KEYS", "*")).startsWith("-NOAUTH");
        assertThat(RedisCommand.firstReplyLine(address, TIMEOUT, "SET", "presence:x", "y"))
                .startsWith("-NOAUTH");
    }

    @Test
    void a_wrong_password_and_the_default_user_are_refused() throws Exception {
        assertThat(RedisCommand.firstReplyLine(address, TIMEOUT, "AUTH", "tributary", "not-" + password))
                .startsWith("-WRONGPASS");
        // The passwordless default user is off: not even the right password opens it.
        assertThat(RedisCommand.firstReplyLine(address, TIMEOUT, "AUTH", "default", password))
                .startsWith("-WRONGPASS");
        assertThat(RedisCommand.firstReplyLine(address, TIMEOUT, "AUTH", password))
                .startsWith("-WRONGPASS");
    }

    @Test
    void every_service_is_connected_as_the_authenticated_user() throws Exception {
        String clients = RedisCommand.reply(cluster.redisUrl(), TIMEOUT, "CLIENT", "LIST");
        List<String> lines = Arrays.asList(clients.split("\n"));
        for (String service : List.of("tributary-session", "tributary-routing", "tributary-transport")) {
            assertThat(lines)
                    .as("a connection of %s as user tributary in %s", service, clients)
                    .anyMatch(line -> line.contains(" name=" + service + " ") && line.contains(" user=tributary "));
        }
        assertThat(lines).noneMatch(line -> line.contains(" user=default "));
    }

    @Test
    void a_persistent_sessions_queue_in_redis_still_delivers() throws Exception {
        String clientId = id("redis-auth-sub");
        String topic = "it/redis-auth/" + clientId;
        Mqtt5BlockingClient subscriber = client(clientId, 0);
        subscriber.connectWith().cleanStart(true).sessionExpiryInterval(300).send();
        subscriber.subscribeWith().topicFilter(topic).qos(MqttQos.AT_LEAST_ONCE).send();
        subscriber.disconnect();

        Mqtt5BlockingClient publisher = client(id("redis-auth-pub"), 1);
        publisher.connect();
        publisher
                .publishWith()
                .topic(topic)
                .qos(MqttQos.AT_LEAST_ONCE)
                .payload("queued".getBytes(StandardCharsets.UTF_8))
                .send();
        publisher.disconnect();

        // Queued in Redis while the subscriber was away, delivered when it comes back.
        Mqtt5BlockingClient back = client(clientId, 1);
        try (Mqtt5BlockingClient.Mqtt5Publishes publishes =
                back.publishes(com.hivemq.client.mqtt.MqttGlobalPublishFilter.ALL)) {
            back.connectWith().cleanStart(false).sessionExpiryInterval(300).send();
            Optional<Mqtt5Publish> received = publishes.receive(20, TimeUnit.SECONDS);
            assertThat(received).as("the queued message").isPresent();
            assertThat(new String(received.get().getPayloadAsBytes(), StandardCharsets.UTF_8))
                    .isEqualTo("queued");
        } finally {
            back.disconnect();
        }
    }

    private static Mqtt5BlockingClient client(String clientId, int node) {
        return MqttClient.builder()
                .useMqttVersion5()
                .identifier(clientId)
                .serverHost("127.0.0.1")
                .serverPort(cluster.mqttPort(node))
                .buildBlocking();
    }
}
