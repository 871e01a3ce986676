package io.tributary.common.kafka;

import java.util.regex.Pattern;

/**
 * Names of every Kafka topic Tributary uses. This is the contract between services: a producer and its
 * consumers must agree on these names, so they live here and nowhere else.
 */
public final class TopicNames {

    /** Every inbound MQTT PUBLISH. Key = MQTT topic name, value = payload bytes untouched, metadata in headers. */
    public static final String PUBLISH = "tributary.publish";

    /**
     * A copy of every retained PUBLISH ({@code mqtt.retain} = 1), written next to its {@link #PUBLISH} record by the
     * same producer: the retained store reads this topic only, not every publish. Compacted: key = the publish
     * record's key, value = the payload (empty = the retained message is deleted), the same headers. See
     * {@link RetainedRecordFormat}.
     */
    public static final String RETAINED = "tributary.retained";

    /**
     * Subscriptions whose filter has no wildcard. Compacted. Record partition = {@link Partitioning#partitionFor}
     * of the filter, so partition p here holds exactly the subscriptions that can match publishes on partition p
     * of {@link #PUBLISH}; the topic must have the same partition count as {@link #PUBLISH}.
     */
    public static final String SUBSCRIPTIONS_EXACT = "tributary.subscriptions.exact";

    /** Subscriptions whose filter has a wildcard ({@code +} or {@code #}). Compacted; every router reads all of it. */
    public static final String SUBSCRIPTIONS_WILDCARD = "tributary.subscriptions.wildcard";

    /**
     * MQTT-to-Kafka mapping rules, written by session-service, read whole by every transport node. Compacted, one
     * partition (rules are few and their order matters only per rule). See
     * {@link io.tributary.common.mapping.MappingRuleRecords}.
     */
    public static final String MAPPING_RULES = "tributary.mapping-rules";

    /**
     * One record per inbound QoS 2 PUBLISH of a persistent session between its storage and its PUBREL, key
     * {@code clientId, session creation, packet id} (transport-service {@code Qos2Markers}), written in the
     * same Kafka transaction as the publish record and its mapped copies; a tombstone at PUBREL. A transport node
     * that gets a re-sent PUBLISH (DUP = 1) it has no PUBREC record of looks here to know whether the first copy is
     * stored. Compacted, one partition, every transport node reads all of it.
     */
    public static final String QOS2_MARKERS = "tributary.qos2-markers";

    /**
     * Usage deltas of the transport nodes: one record per tenant with activity per node per metering interval, key =
     * tenant id, value = {@link io.tributary.common.metering.UsageDelta} as JSON. Read by session-service, which adds
     * them into PostgreSQL exactly once. Deleted after a week.
     */
    public static final String METERING_DELTAS = "tributary.metering.deltas";

    /**
     * Hourly usage totals per tenant, written by session-service. Compacted: key {@code <tenant>|<hour>} (the hour as
     * ISO-8601, e.g. {@code acme|2026-11-26T13:00:00Z}), value {@link io.tributary.common.metering.UsageTotals} as
     * JSON; the last record of a key holds that hour's totals so far. Billing systems read it with a plain consumer.
     */
    public static final String METERING = "tributary.metering";

    /** Prefix of the per-transport-node downlink topics: deliveries and control commands for that node. */
    public static final String DOWNLINK_PREFIX = "tributary.downlink.";

    /** Compiled once: routing names a downlink topic for every record it sends. */
    private static final Pattern NODE_ID = Pattern.compile("[A-Za-z0-9._-]{1,200}");

    private TopicNames() {}

    /** The downlink topic of one transport node. */
    public static String downlink(String nodeId) {
        if (nodeId == null || !NODE_ID.matcher(nodeId).matches()) {
            throw new IllegalArgumentException("node id must match [A-Za-z0-9._-]{1,200}: " + nodeId);
        }
        return DOWNLINK_PREFIX + nodeId;
    }

    /**
     * The subscription topic for a filter: wildcard filters are replicated to every router, exact ones sharded. A
     * shared filter ({@code $share/g/f}) goes where its inner filter {@code f} goes.
     */
    public static String subscriptionsFor(String filter) {
        String matched = io.tributary.common.topic.SharedFilters.innerFilter(filter);
        return io.tributary.common.topic.TopicFilters.hasWildcard(matched)
                ? SUBSCRIPTIONS_WILDCARD
                : SUBSCRIPTIONS_EXACT;
    }
}
