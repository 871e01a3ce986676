package io.tributary.session.bridge;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A Kafka-to-MQTT rule as the admin API shows it.
 *
 * @param kafkaTopic the user's topic whose records are delivered
 * @param mqttTopic  the MQTT topic they are delivered on; {@code {key}} stands for the record key
 * @param qos        QoS of the delivery, or null: the record's {@code mqtt.qos} header, else 1
 * @param retain     retain flag, or null: the record's {@code mqtt.retain} header, else false
 */
public record BridgeRule(
        long id,
        String kafkaTopic,
        String mqttTopic,
        @Nullable Integer qos,
        @Nullable Boolean retain,
        Instant createdAt) {

    /** The consumer group that reads the rule's topic; one per rule, so rules on one topic do not share records. */
    public String consumerGroup() {
        return "tributary-bridge-" + id;
    }
}
