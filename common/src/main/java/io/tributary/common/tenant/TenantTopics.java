package io.tributary.common.tenant;

import java.util.regex.Pattern;

/**
 * The reserved topic level under which every tenant's topics live inside the broker: a client of tenant
 * {@code acme} publishing {@code meters/1} is stored, routed and keyed in Kafka as {@code $tenant/acme/meters/1}.
 * No client may name a topic or filter under {@code $tenant} itself ({@link #isReserved}): a PUBLISH there is refused
 * as not authorized, a SUBSCRIBE with 0x87 (MQTT 5) / 0x80 (3.1.1). Because the level starts with {@code $}, filters
 * beginning with {@code #} or {@code +} never match it (MQTT 5 section 4.7.2), so clients without a tenant cannot
 * see tenant traffic and each tenant's {@code #} is its own {@code $tenant/<id>/#}.
 *
 * <p>A tenant id is 1 to 63 characters of lower-case letters, digits and '-', starting with a letter or digit: safe
 * as a topic level, a Kafka header, a metric tag and (later) part of a Kafka topic or Redis key name.
 */
public final class TenantTopics {

    /** The reserved first level. */
    public static final String ROOT = "$tenant";

    private static final String ROOT_SLASH = ROOT + "/";
    private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");

    private TenantTopics() {}

    /** Why {@code id} cannot name a tenant, or null when it can. */
    public static String idProblem(String id) {
        if (id == null || id.isEmpty()) {
            return "a tenant id is required";
        }
        if (!ID.matcher(id).matches()) {
            return "a tenant id is 1 to 63 lower-case letters, digits and '-', starting with a letter or digit: '" + id
                    + "'";
        }
        return null;
    }

    /** The prefix of every topic of {@code tenant}: {@code $tenant/<id>/}. */
    public static String prefix(String tenant) {
        return ROOT_SLASH + tenant + "/";
    }

    /** Whether a topic name or (inner) filter lies in the reserved namespace, where clients may not go themselves. */
    public static boolean isReserved(String topicOrFilter) {
        return topicOrFilter.equals(ROOT) || topicOrFilter.startsWith(ROOT_SLASH);
    }

    /** The tenant an internal topic name belongs to, or null for a topic of the global namespace. */
    public static String tenantOf(String topic) {
        if (!topic.startsWith(ROOT_SLASH)) {
            return null;
        }
        int end = topic.indexOf('/', ROOT_SLASH.length());
        return end < 0 ? null : topic.substring(ROOT_SLASH.length(), end);
    }

    /**
     * The name a client sees for an internal topic: without its tenant prefix. Only clients of that tenant have
     * filters that match it, so stripping by the topic alone is stripping by the subscriber's tenant.
     */
    public static String visible(String topic) {
        if (!topic.startsWith(ROOT_SLASH)) {
            return topic;
        }
        int end = topic.indexOf('/', ROOT_SLASH.length());
        return end < 0 ? topic : topic.substring(end + 1);
    }
}
