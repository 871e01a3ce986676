package io.tributary.session.mapping;

import org.jspecify.annotations.Nullable;

/**
 * Body of {@code POST /api/v1/rules/mqtt-to-kafka}.
 *
 * @param filter     MQTT topic filter with optional named levels, e.g. {@code vehicles/{vin}/telemetry/#}
 * @param kafkaTopic the Kafka topic to write to; must exist unless {@code partitions} is given
 * @param key        {@code topic} (default), {@code client-id}, {@code none} or {@code {level}} of the filter
 * @param partitions when the topic does not exist: create it with this many partitions (and the replication factor
 *                   of Tributary's own topics); when it exists, must be its partition count or absent
 */
public record MappingRuleRequest(
        String filter,
        String kafkaTopic,
        @Nullable String key,
        @Nullable Integer partitions) {}
