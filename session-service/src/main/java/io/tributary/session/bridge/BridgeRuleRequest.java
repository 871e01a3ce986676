package io.tributary.session.bridge;

import org.jspecify.annotations.Nullable;

/**
 * Body of {@code POST /api/v1/rules/kafka-to-mqtt}: {@code kafkaTopic} (must exist), {@code mqttTopic} (with an
 * optional {@code {key}}), and optionally {@code qos} (0..2) and {@code retain}; absent means "from the record's
 * headers"; {@code partitions} creates a missing topic with that many partitions.
 */
public record BridgeRuleRequest(
        String kafkaTopic,
        String mqttTopic,
        @Nullable Integer qos,
        @Nullable Boolean retain,
        @Nullable Integer partitions) {}
