package io.tributary.routing.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.common.kafka.TopicLayout;
import io.tributary.common.kafka.TopicNames;
import io.tributary.devstack.kafka.EmbeddedKafka;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Topic creation modes against a real (empty) Kafka broker. */
class TopicProvisioningTest {

    @TempDir
    static Path kafkaDir;

    private static EmbeddedKafka kafka;
    private static Admin admin;

    @BeforeAll
    static void startKafka() {
        kafka = EmbeddedKafka.start(kafkaDir);
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
    }

    @AfterAll
    static void stopKafka() {
        if (admin != null) {
            admin.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    private static TopicLayout layout(TopicLayout.Creation creation) {
        return new TopicLayout(3, 2, 1, (short) 1, Duration.ofHours(1), (short) 1, creation);
    }

    @Test
    void verify_never_creates_and_names_what_to_create_then_create_sets_min_insync_replicas() throws Exception {
        assertThatThrownBy(() -> layout(TopicLayout.Creation.VERIFY).ensureSharedTopics(admin))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("TRIBUTARY_TOPIC_CREATION=verify")
                .hasMessageContaining(TopicNames.PUBLISH + " (3 partitions, replication factor 1")
                .hasMessageContaining(TopicNames.SUBSCRIPTIONS_WILDCARD + " (2 partitions");
        assertThatThrownBy(() -> layout(TopicLayout.Creation.VERIFY).ensureDownlinkTopic(admin, "n1"))
                .hasMessageContaining(TopicNames.downlink("n1"));
        assertThat(admin.listTopics().names().get()).doesNotContain(TopicNames.PUBLISH, TopicNames.downlink("n1"));

        layout(TopicLayout.Creation.CREATE).ensureSharedTopics(admin);
        layout(TopicLayout.Creation.CREATE).ensureDownlinkTopic(admin, "n1");
        for (String topic : List.of(TopicNames.PUBLISH, TopicNames.SUBSCRIPTIONS_EXACT, TopicNames.downlink("n1"))) {
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            Config config = admin.describeConfigs(List.of(resource)).all().get().get(resource);
            var minIsr = config.get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG);
            assertThat(minIsr.value()).as(topic).isEqualTo("1");
            // Set on the topic itself, not inherited from the broker's default.
            assertThat(minIsr.source())
                    .as(topic)
                    .isEqualTo(org.apache.kafka.clients.admin.ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
        }

        // Once provisioned, verify mode accepts the topics.
        layout(TopicLayout.Creation.VERIFY).ensureSharedTopics(admin);
        layout(TopicLayout.Creation.VERIFY).ensureDownlinkTopic(admin, "n1");
    }
}
