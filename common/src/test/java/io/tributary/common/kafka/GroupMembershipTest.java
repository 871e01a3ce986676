package io.tributary.common.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.junit.jupiter.api.Test;

class GroupMembershipTest {

    @Test
    void consumer_protocol_leaves_assignment_to_the_broker() {
        Map<String, Object> config = new GroupMembership(GroupMembership.Protocol.CONSUMER, "").consumerConfig("g");
        assertThat(config)
                .containsEntry(ConsumerConfig.GROUP_ID_CONFIG, "g")
                .containsEntry(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer")
                // The consumer protocol refuses a client-side assignor, and a member without an instance id is dynamic.
                .doesNotContainKeys(
                        ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        // Kafka's own validation of the whole consumer configuration accepts it.
        new ConsumerConfig(withDeserializers(config));
    }

    @Test
    void classic_protocol_is_cooperative_sticky_and_static_with_an_instance_id() {
        GroupMembership membership = new GroupMembership(GroupMembership.Protocol.CLASSIC, " router-1 ");
        Map<String, Object> config = membership.consumerConfig("g");
        assertThat(config)
                .containsEntry(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic")
                .containsEntry(
                        ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName())
                .containsEntry(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "router-1");
        new ConsumerConfig(withDeserializers(config));
    }

    @Test
    void client_ids_name_the_instance() {
        assertThat(new GroupMembership(GroupMembership.Protocol.CONSUMER, "router-1")
                        .clientId("tributary-routing", "publish"))
                .isEqualTo("tributary-routing-publish-router-1");
        String dynamic = new GroupMembership(GroupMembership.Protocol.CONSUMER, null).clientId("p", "r");
        assertThat(dynamic)
                .startsWith("p-r-")
                .endsWith("-" + ProcessHandle.current().pid())
                .matches("[A-Za-z0-9._-]+");
    }

    private static Map<String, Object> withDeserializers(Map<String, Object> config) {
        Map<String, Object> all = new java.util.HashMap<>(config);
        all.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        all.put(
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                org.apache.kafka.common.serialization.ByteArrayDeserializer.class);
        all.put(
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                org.apache.kafka.common.serialization.ByteArrayDeserializer.class);
        return all;
    }
}
