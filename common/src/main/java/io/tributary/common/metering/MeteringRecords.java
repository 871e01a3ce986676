package io.tributary.common.metering;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Keys and JSON values of the metering topics ({@link io.tributary.common.kafka.TopicNames#METERING_DELTAS},
 * {@link io.tributary.common.kafka.TopicNames#METERING}). Instants are ISO-8601 strings; unknown fields are ignored, so
 * fields can be added without breaking older readers.
 */
public final class MeteringRecords {

    private static final JsonMapper JSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private MeteringRecords() {}

    /** The key of a delta record: the tenant id, so one tenant's deltas of one node stay in order. */
    public static byte[] deltaKey(String tenant) {
        return tenant.getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] encode(UsageDelta delta) {
        return JSON.writeValueAsBytes(delta);
    }

    /** The delta in a record's value; IllegalArgumentException when it is not one. */
    public static UsageDelta decodeDelta(byte[] value) {
        try {
            return JSON.readValue(value, UsageDelta.class);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("not a usage delta: " + e.getOriginalMessage(), e);
        }
    }

    /** {@code <tenant>|<hour>}, e.g. {@code acme|2026-11-26T13:00:00Z}. */
    public static String totalsKey(String tenant, Instant hour) {
        return tenant + "|" + hour;
    }

    public static byte[] encode(UsageTotals totals) {
        return JSON.writeValueAsBytes(totals);
    }

    public static UsageTotals decodeTotals(byte[] value) {
        try {
            return JSON.readValue(value, UsageTotals.class);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("not usage totals: " + e.getOriginalMessage(), e);
        }
    }
}
