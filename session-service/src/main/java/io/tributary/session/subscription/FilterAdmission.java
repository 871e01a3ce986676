package io.tributary.session.subscription;

import io.tributary.common.topic.TopicFilters;

/** Which requested topic filters are stored, and the MQTT reason code of those that are not. */
public final class FilterAdmission {

    public static final int SUCCESS = 0x00;
    public static final int NO_SUBSCRIPTION_EXISTED = 0x11;
    public static final int TOPIC_FILTER_INVALID = 0x8F;
    public static final int SHARED_SUBSCRIPTIONS_NOT_SUPPORTED = 0x9E;
    /** Highest QoS this broker grants. */
    public static final int MAX_QOS = 2;

    private static final String SHARED_PREFIX = "$share/";

    private FilterAdmission() {
    }

    /** @return the failure reason code for {@code filter}, or -1 when it is accepted */
    public static int rejection(String filter) {
        if (filter.startsWith(SHARED_PREFIX)) {
            return SHARED_SUBSCRIPTIONS_NOT_SUPPORTED;
        }
        if (TopicFilters.topicFilterProblem(filter) != null) {
            return TOPIC_FILTER_INVALID;
        }
        return -1;
    }

    /** The QoS granted for a requested one; SUBACK carries it as the reason code. */
    public static int grantedQos(int requestedQos) {
        return Math.min(requestedQos, MAX_QOS);
    }
}
