package io.tributary.it.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.TributaryCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Every service serves Prometheus metrics, and the transport's (connections, publishes, bytes) move with traffic. */
@ExtendWith(LogsOnFailure.class)
class MetricsTest {

    private static TributaryCluster cluster;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    private String scrape(String baseUrl) throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(baseUrl + "/actuator/prometheus"))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    private static double value(String scrape, String metricPrefix) {
        return scrape.lines()
                .filter(l -> l.startsWith(metricPrefix))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }

    @Test
    void transport_counts_connections_publishes_and_kafka_latency() throws Exception {
        String base = cluster.transportManagementUrl(0);
        String before = scrape(base);
        double publishedBefore = value(before, "tributary_publishes_in_total{");
        double bytesInBefore = value(before, "tributary_mqtt_bytes_in_total{");
        double bytesOutBefore = value(before, "tributary_mqtt_bytes_out_total{");
        Mqtt5BlockingClient client = Clients.hive5(cluster.mqttPort(0), Clients.id("metrics"));
        client.connect();
        try {
            client.publishWith()
                    .topic("it/metrics")
                    .payload(new byte[] {1})
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            String scrape = scrape(base);
            assertThat(value(scrape, "tributary_connections{")).isGreaterThanOrEqualTo(1);
            assertThat(value(scrape, "tributary_publishes_in_total{")).isGreaterThanOrEqualTo(publishedBefore + 1);
            assertThat(scrape).contains("tributary_publishes_out_total{");
            assertThat(value(scrape, "tributary_kafka_produce_latency_seconds_count{"))
                    .isGreaterThanOrEqualTo(1);
            // At least the CONNECT and the PUBLISH came in; at least the CONNACK and the PUBACK went out.
            assertThat(value(scrape, "tributary_mqtt_bytes_in_total{")).isGreaterThanOrEqualTo(bytesInBefore + 20);
            assertThat(value(scrape, "tributary_mqtt_bytes_out_total{")).isGreaterThanOrEqualTo(bytesOutBefore + 8);
        } finally {
            client.disconnect();
        }
    }

    @Test
    void routing_and_session_services_serve_their_metrics() throws Exception {
        String routing = scrape(cluster.routingManagementUrl());
        assertThat(routing)
                .contains(
                        "tributary_routing_publishes_in_total",
                        "tributary_routing_deliveries_out_total",
                        "tributary_kafka_produce_latency_seconds");
        String session = scrape(cluster.sessionManagementUrl());
        assertThat(session)
                .contains(
                        "tributary_sessions_connected",
                        "tributary_session_connects_total",
                        "tributary_kafka_produce_latency_seconds");
    }
}
