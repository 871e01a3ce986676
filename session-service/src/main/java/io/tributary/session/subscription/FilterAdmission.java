package io.tributary.session.subscription;

import io.tributary.common.topic.SharedFilters;
import io.tributary.common.topic.TopicFilters;

/** Which requested topic filters are stored, and the MQTT reason code of those that are not. */
public final class FilterAdmission {

    public static final int SUCCESS = 0x00;
    public static final int NO_SUBSCRIPTION_EXISTED = 0x11;
    public static final int TOPIC_FILTER_INVALID = 0x8F;
    /** The client's tenant holds as many subscriptions as its quota allows (MQTT 3.x nodes answer 0x80). */
    public static final int QUOTA_EXCEEDED = 0x97;
    /** Highest QoS this broker grants. */
    public static final int MAX_QOS = 2;

    private FilterAdmission() {}

    /**
     * Shared subscriptions ({@code $share/g/f}) are accepted when the share name and the inner filter are valid;
     * they are stored with the full filter, like any other.
     *
     * @return the failure reason code for {@code filter}, or -1 when it is accepted
     */
    public static int rejection(String filter) {
        String problem = SharedFilters.isShared(filter)
                ? SharedFilters.problem(filter)
                : TopicFilters.topicFilterProblem(filter);
        if (problem != null) {
            return TOPIC_FILTER_INVALID;
        }
        return -1;
    }

    /** The QoS granted for a requested one; SUBACK carries it as the reason code. */
    public static int grantedQos(int requestedQos) {
        return Math.min(requestedQos, MAX_QOS);
    }
}
