package io.tributary.it.support;

import java.time.Duration;
import java.util.List;

/** The routing services' consumer group on the test brokers: shorter timeouts than Kafka's, set as group configuration. */
public final class RoutersGroup {

    /**
     * The routers' consumer group ({@code tributary-routing}, routing-service's default) gets this session timeout
     * and a 1 s heartbeat on the test brokers instead of Kafka's 45 s and 5 s: a killed router (a dynamic member)
     * keeps its publish partitions until its session expires, so FaultInjectionTest's router kill waited ~35 s for
     * Kafka, not for Tributary. Ten heartbeats per timeout, so a router starved of CPU is not fenced by mistake.
     */
    public static final Duration SESSION_TIMEOUT = Duration.ofSeconds(10);

    public static final String NAME = "tributary-routing";

    private RoutersGroup() {}

    /** Sets {@link #SESSION_TIMEOUT} (and a 1 s heartbeat) as the routers' group configuration. */
    static void applyTestTimeouts(String bootstrapServers) throws Exception {
        sessionTimeout(bootstrapServers, SESSION_TIMEOUT);
    }

    /** The routers' group session timeout (its heartbeat stays 1 s); for a test that needs another one for a while. */
    public static void sessionTimeout(String bootstrapServers, Duration timeout) throws Exception {
        try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(java.util.Map.of(
                org.apache.kafka.clients.admin.AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            org.apache.kafka.common.config.ConfigResource group = new org.apache.kafka.common.config.ConfigResource(
                    org.apache.kafka.common.config.ConfigResource.Type.GROUP, NAME);
            admin.incrementalAlterConfigs(java.util.Map.of(
                            group,
                            List.of(
                                    set("consumer.session.timeout.ms", timeout.toMillis()),
                                    set("consumer.heartbeat.interval.ms", 1000))))
                    .all()
                    .get(30, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    private static org.apache.kafka.clients.admin.AlterConfigOp set(String name, long value) {
        return new org.apache.kafka.clients.admin.AlterConfigOp(
                new org.apache.kafka.clients.admin.ConfigEntry(name, String.valueOf(value)),
                org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET);
    }
}
