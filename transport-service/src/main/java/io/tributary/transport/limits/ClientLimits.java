package io.tributary.transport.limits;

import io.netty.channel.Channel;
import io.netty.handler.codec.mqtt.MqttReasonCodes;
import io.netty.util.AttributeKey;
import io.tributary.common.topic.TopicFilters;
import io.tributary.transport.connection.ClientConnection;
import java.util.function.LongSupplier;

/**
 * The per-client limits checked on the event loop of each connection: PUBLISH rate, payload size and topic levels,
 * and the number of subscriptions of a session. Their state (a connection's publish bucket and its count of
 * subscriptions waiting for session-service) lives on the channel, so the check is a few field reads and never
 * waits for another thread. Sharable; one per node.
 */
public final class ClientLimits {

    /** No limits (handlers in unit tests that are not about limits). */
    public static final ClientLimits NONE = new ClientLimits(LimitsProperties.none(), null, System::nanoTime);

    /** Why a PUBLISH is refused: the metric reason, the MQTT 5 PUBACK / PUBREC code and the cause. */
    public record Refusal(String reason, byte code, String cause) {}

    /**
     * A quota checked after the client's own limits (the tenant's, limits.tenant's TenantPublishQuotas): an interface
     * here so that limits does not depend on the package that implements it.
     */
    @FunctionalInterface
    public interface PublishQuota {
        /** No quota beyond the client's own limits. */
        PublishQuota NONE = (connection, payloadBytes, retain) -> null;

        /** Null when the PUBLISH fits, else the refusal (counted and logged by the quota). Never waits. */
        Refusal check(ClientConnection connection, int payloadBytes, boolean retain);
    }

    private static final AttributeKey<RateLimiter> PUBLISH_RATE = AttributeKey.valueOf("tributary.publishRate");
    private static final AttributeKey<int[]> PENDING_SUBSCRIPTIONS =
            AttributeKey.valueOf("tributary.pendingSubscriptions");
    /** MQTT 5 reason codes, the same for PUBACK and PUBREC. */
    private static final byte TOPIC_NAME_INVALID = MqttReasonCodes.PubAck.TOPIC_NAME_INVALID.byteValue();

    private static final byte QUOTA_EXCEEDED = MqttReasonCodes.PubAck.QUOTA_EXCEEDED.byteValue();

    private final LimitsProperties limits;
    private final LimitRefusals refusals;
    private final LongSupplier nanoTime;
    private final PublishQuota tenantQuotas;

    public ClientLimits(LimitsProperties limits, LimitRefusals refusals, LongSupplier nanoTime) {
        this(limits, refusals, nanoTime, PublishQuota.NONE);
    }

    /** @param tenantQuotas the publish quotas of the clients' tenants, checked after the client's own limits */
    public ClientLimits(
            LimitsProperties limits, LimitRefusals refusals, LongSupplier nanoTime, PublishQuota tenantQuotas) {
        this.limits = limits;
        this.refusals = refusals;
        this.nanoTime = nanoTime;
        this.tenantQuotas = tenantQuotas;
    }

    /**
     * Null when the PUBLISH may go on, else why not: too many topic levels (0x90), payload too large or the
     * client over its publish rate (0x97 quota exceeded; MQTT 5 has no "message rate too high" for PUBACK, 0x96
     * exists only in DISCONNECT). The rate is checked last of the client's own limits, so a PUBLISH refused for
     * another reason takes no token; then its tenant's publish quotas ({@link PublishQuota}, 0x97 too, counted
     * and logged there, with its retained-message quota when {@code retain}), so a PUBLISH the client's own limits
     * refuse takes nothing from its tenant's.
     */
    public Refusal checkPublish(ClientConnection connection, String topic, int payloadBytes, boolean retain) {
        if (limits.maxTopicLevels() > 0 && TopicFilters.levels(topic) > limits.maxTopicLevels()) {
            return refused(
                    connection,
                    LimitRefusals.TOPIC_LEVELS,
                    TOPIC_NAME_INVALID,
                    "topic '" + topic + "' has more than " + limits.maxTopicLevels() + " levels");
        }
        if (limits.maxPayloadSize() > 0 && payloadBytes > limits.maxPayloadSize()) {
            return refused(
                    connection,
                    LimitRefusals.PAYLOAD_SIZE,
                    QUOTA_EXCEEDED,
                    "payload of " + payloadBytes + " bytes is larger than " + limits.maxPayloadSize());
        }
        if (limits.publishRate() > 0) {
            Channel channel = connection.channel();
            RateLimiter bucket = channel.attr(PUBLISH_RATE).get();
            long now = nanoTime.getAsLong();
            if (bucket == null) {
                bucket = new RateLimiter(limits.publishRate(), limits.publishBurst(), now);
                channel.attr(PUBLISH_RATE).set(bucket);
            }
            if (!bucket.tryAcquire(now)) {
                return refused(
                        connection,
                        LimitRefusals.PUBLISH_RATE,
                        QUOTA_EXCEEDED,
                        "more than " + limits.publishRate() + " publishes per second (burst " + limits.publishBurst()
                                + ")");
            }
        }
        return tenantQuotas.check(connection, payloadBytes, retain);
    }

    /** True when a SUBSCRIBE filter has more levels than allowed (counted and logged here). */
    public boolean tooManyLevels(ClientConnection connection, String filter) {
        if (limits.maxTopicLevels() > 0 && TopicFilters.levels(filter) > limits.maxTopicLevels()) {
            refused(
                    connection,
                    LimitRefusals.TOPIC_LEVELS,
                    TOPIC_NAME_INVALID,
                    "topic filter '" + filter + "' has more than " + limits.maxTopicLevels() + " levels");
            return true;
        }
        return false;
    }

    /**
     * How many more new filters the session may subscribe to now: the limit minus what it holds and what it sent to
     * session-service and has no answer for yet. {@link Integer#MAX_VALUE} without a limit.
     *
     * @param held the filters the connection holds now (counted by {@code index.LocalSubscriptions})
     */
    public int subscriptionsLeft(ClientConnection connection, int held) {
        if (limits.maxSubscriptions() <= 0) {
            return Integer.MAX_VALUE;
        }
        return limits.maxSubscriptions() - held - pending(connection)[0];
    }

    /** A new filter refused because the session holds the maximum (counted and logged here). */
    public void subscriptionRefused(ClientConnection connection, String filter) {
        refused(
                connection,
                LimitRefusals.SUBSCRIPTIONS,
                QUOTA_EXCEEDED,
                "subscription to '" + filter + "' refused: the session holds " + limits.maxSubscriptions()
                        + " subscriptions already");
    }

    /** New filters sent to session-service ({@code delta} > 0) or answered ({@code delta} < 0). */
    public void pendingSubscriptions(ClientConnection connection, int delta) {
        if (limits.maxSubscriptions() > 0) {
            pending(connection)[0] += delta;
        }
    }

    private static int[] pending(ClientConnection connection) {
        int[] pending = connection.channel().attr(PENDING_SUBSCRIPTIONS).get();
        if (pending == null) {
            pending = new int[1];
            connection.channel().attr(PENDING_SUBSCRIPTIONS).set(pending);
        }
        return pending;
    }

    private Refusal refused(ClientConnection connection, String reason, byte code, String cause) {
        if (refusals != null) {
            refusals.refused(reason, "Refusing a packet of " + connection, cause);
        }
        return new Refusal(reason, code, cause);
    }

    public LimitsProperties properties() {
        return limits;
    }
}
