package io.tributary.session.mapping;

import java.time.Instant;

/**
 * A mapping rule as the admin API shows it.
 *
 * @param filter     MQTT topic filter, named levels as written ({@code vehicles/{vin}/telemetry/#})
 * @param kafkaTopic the user's Kafka topic the matching publishes are written to
 * @param key        where the record key comes from: {@code topic}, {@code client-id}, {@code none} or
 *                   {@code {level}}
 */
public record MappingRuleView(long id, String filter, String kafkaTopic, String key, Instant createdAt) {}
