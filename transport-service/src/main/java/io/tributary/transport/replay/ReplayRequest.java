package io.tributary.transport.replay;

import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttReasonCodes.SubAck;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * What history a SUBSCRIBE asks for, from its MQTT 5 user properties: {@code replay-from} = an ISO-8601 date-time
 * with offset (messages published at or after it) or {@code replay-last} = N (the last N matching messages). User
 * properties belong to the packet, so the request applies to every filter of the SUBSCRIBE.
 *
 * @param from first publish time wanted, or null for {@code replay-last}
 * @param last messages wanted, or 0 for {@code replay-from}
 */
public record ReplayRequest(Instant from, int last) {

    public static final String FROM = "replay-from";
    public static final String LAST = "replay-last";
    /**
     * User property {@code replay-truncated} = {@code true} on the first message of a {@code replay-from} history that
     * may not reach back to the time asked for: it was cut to its newest {@code TRIBUTARY_REPLAY_MAX_MESSAGES} (older
     * matching messages exist and were left out), or Kafka's retention had already deleted records that may have been
     * in the range.
     */
    public static final String TRUNCATED = "replay-truncated";

    /** MQTT 5 SUBACK 0x83 Implementation specific error: the SUBSCRIBE is valid but the server does not accept it. */
    public static final int NOT_ACCEPTED = Byte.toUnsignedInt(SubAck.IMPLEMENTATION_SPECIFIC_ERROR.byteValue());
    /** MQTT 5 SUBACK 0x97 Quota exceeded: an implementation or administrative limit has been exceeded. */
    public static final int QUOTA_EXCEEDED = Byte.toUnsignedInt(SubAck.QUOTA_EXCEEDED.byteValue());

    /**
     * The outcome of reading a SUBSCRIBE's replay properties.
     *
     * @param request what to replay, or null when refused
     * @param code    the SUBACK reason code for its filters when refused, else 0
     * @param problem why it was refused (reason string, log line), else null
     */
    public record Verdict(ReplayRequest request, int code, String problem) {

        static Verdict refused(int code, String problem) {
            return new Verdict(null, code, problem);
        }

        public boolean refused() {
            return request == null;
        }
    }

    /** The verdict on the SUBSCRIBE's properties, or null when it asks for no replay. */
    public static Verdict of(MqttProperties properties, ReplayProperties limits, long nowMillis) {
        String from = null;
        String last = null;
        int asked = 0;
        List<? extends MqttProperties.MqttProperty> users =
                properties.getProperties(MqttProperties.MqttPropertyType.USER_PROPERTY.value());
        for (MqttProperties.MqttProperty p : users) {
            if (p instanceof MqttProperties.UserProperty u) {
                String name = u.value().key;
                if (FROM.equals(name)) {
                    from = u.value().value;
                    asked++;
                } else if (LAST.equals(name)) {
                    last = u.value().value;
                    asked++;
                }
            } else if (p instanceof MqttProperties.UserProperties list) {
                for (MqttProperties.StringPair pair : list.value()) {
                    if (FROM.equals(pair.key)) {
                        from = pair.value;
                        asked++;
                    } else if (LAST.equals(pair.key)) {
                        last = pair.value;
                        asked++;
                    }
                }
            }
        }
        if (asked == 0) {
            return null;
        }
        if (!limits.enabled()) {
            return Verdict.refused(NOT_ACCEPTED, "replay is disabled on this server");
        }
        if (asked > 1) {
            return Verdict.refused(NOT_ACCEPTED, "give one of " + FROM + " and " + LAST + ", once");
        }
        if (last != null) {
            int n;
            try {
                n = Integer.parseInt(last.trim());
            } catch (NumberFormatException e) {
                n = -1;
            }
            if (n < 1) {
                return Verdict.refused(NOT_ACCEPTED, LAST + " must be a positive integer, not '" + last + "'");
            }
            if (n > limits.maxMessages()) {
                return Verdict.refused(
                        QUOTA_EXCEEDED,
                        LAST + " " + n + " is above the limit of " + limits.maxMessages() + " messages");
            }
            return new Verdict(new ReplayRequest(null, n), 0, null);
        }
        Instant start;
        try {
            start = OffsetDateTime.parse(from.trim()).toInstant();
        } catch (DateTimeParseException e) {
            return Verdict.refused(
                    NOT_ACCEPTED,
                    FROM + " must be an ISO-8601 date-time with offset (for example" + " 2026-11-25T10:00:00Z), not '"
                            + from + "'");
        }
        if (start.toEpochMilli() < nowMillis - limits.maxAge().toMillis()) {
            return Verdict.refused(
                    QUOTA_EXCEEDED, FROM + " " + from + " is further back than the limit of " + limits.maxAge());
        }
        return new Verdict(new ReplayRequest(start, 0), 0, null);
    }

    @Override
    public String toString() {
        return from != null ? FROM + " " + from : LAST + " " + last;
    }
}
