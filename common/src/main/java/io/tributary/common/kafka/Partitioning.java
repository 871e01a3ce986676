package io.tributary.common.kafka;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Utils;

/**
 * The one partitioning rule shared by publishes and exact subscriptions. Kafka's default partitioner sends a record
 * with a key to {@code toPositive(murmur2(key)) % partitions}; publishes are keyed by MQTT topic and use it
 * implicitly, subscription records name the partition explicitly with this same function, so that both land on the
 * same partition number and one router owns both.
 */
public final class Partitioning {

    private Partitioning() {}

    public static int partitionFor(String mqttTopic, int partitions) {
        if (partitions <= 0) {
            throw new IllegalArgumentException("partitions must be positive: " + partitions);
        }
        byte[] key = mqttTopic.getBytes(StandardCharsets.UTF_8);
        return Utils.toPositive(Utils.murmur2(key)) % partitions;
    }
}
