package io.tributary.it.containers;

import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import io.tributary.it.support.ContainerEngines;
import io.tributary.it.support.TributaryCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The same system on Kafka, PostgreSQL and Redis containers, where a Docker engine answers. Without one the class
 * is skipped (and every other integration test runs on embedded engines).
 */
@Testcontainers(disabledWithoutDocker = true)
class ContainerEnginesTest {

    @Test
    void message_crosses_nodes_on_container_engines() throws Exception {
        Path dir = Paths.get("target", "it-containers-" + System.currentTimeMillis())
                .toAbsolutePath();
        TributaryCluster cluster = TributaryCluster.start(dir, new ContainerEngines());
        try {
            Mqtt5BlockingClient subscriber = com.hivemq.client.mqtt.MqttClient.builder()
                    .useMqttVersion5()
                    .identifier("containers-sub")
                    .serverHost("127.0.0.1")
                    .serverPort(cluster.mqttPort(0))
                    .buildBlocking();
            Mqtt5BlockingClient publisher = com.hivemq.client.mqtt.MqttClient.builder()
                    .useMqttVersion5()
                    .identifier("containers-pub")
                    .serverHost("127.0.0.1")
                    .serverPort(cluster.mqttPort(1))
                    .buildBlocking();
            subscriber.connect();
            publisher.connect();
            try (Mqtt5BlockingClient.Mqtt5Publishes in = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
                subscriber
                        .subscribeWith()
                        .topicFilter("containers/+")
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .send();
                publisher
                        .publishWith()
                        .topic("containers/a")
                        .payload("x".getBytes(StandardCharsets.UTF_8))
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .send();
                assertThat(in.receive(20, TimeUnit.SECONDS)).isPresent();
            } finally {
                publisher.disconnect();
                subscriber.disconnect();
            }
        } finally {
            cluster.stop();
        }
    }
}
