package io.tributary.session.kafka;

import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.stereotype.Component;

/** Kafka is up when the cluster answers a describe within two seconds. Shown as {@code kafka} in /actuator/health. */
@Component("kafkaHealthIndicator")
public class KafkaHealthIndicator extends AbstractHealthIndicator {

    private static final int TIMEOUT_MS = 2000;

    private final Admin admin;

    public KafkaHealthIndicator(Admin admin) {
        super("Kafka health check failed");
        this.admin = admin;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) throws Exception {
        var cluster = admin.describeCluster(new DescribeClusterOptions().timeoutMs(TIMEOUT_MS));
        String clusterId = cluster.clusterId().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        int brokers = cluster.nodes().get(TIMEOUT_MS, TimeUnit.MILLISECONDS).size();
        builder.up().withDetail("clusterId", clusterId).withDetail("brokers", brokers);
    }
}
