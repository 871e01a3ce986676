package io.tributary.session.tenant;

import io.tributary.common.tenant.TenantTopics;
import io.tributary.session.web.ApiException;
import org.jspecify.annotations.Nullable;

/**
 * Body of {@code POST /api/v1/tenants} and {@code PUT /api/v1/tenants/{id}} (where {@code id} is left out or equal).
 * Each quota is null for no limit; 0 admits none.
 *
 * @param id                  lower-case letters, digits and '-', 1 to 63 characters, starting with a letter or digit
 * @param maxConnections      its clients connected at once across the cluster at most
 * @param maxSessions         persistent sessions (session expiry above 0, MQTT 3.x clean session false) stored for its
 *                            clients at most: a CONNECT that would create one more is refused (resuming one never is)
 * @param maxSubscriptions    subscriptions stored for its clients in total at most: a SUBSCRIBE filter that would add
 *                            one more is refused (replacing one never is)
 * @param connectRate         CONNECTs per second of all its clients across the cluster at most
 * @param maxPublishRate      PUBLISH packets per second its clients may send together across the cluster
 * @param maxPublishBytesRate payload bytes per second its clients may send together across the cluster
 * @param maxDeliveryBytesRate payload bytes per second delivered to its clients together across the cluster (QoS 0
 *                            beyond it dropped, QoS 1/2 delayed)
 * @param maxRetained         retained messages stored for its namespace at most: a retained PUBLISH to a topic
 *                            that has none yet is not stored beyond it (replacing or deleting one always is)
 * @param maxQueuedMessages   messages each of its persistent sessions' queues holds at most, at least 1; the global
 *                            {@code TRIBUTARY_QUEUE_LIMIT} still applies when lower
 */
public record TenantRequest(
        @Nullable String id,
        @Nullable String description,
        @Nullable Integer maxConnections,
        @Nullable Integer maxSessions,
        @Nullable Integer maxSubscriptions,
        @Nullable Integer connectRate,
        @Nullable Integer maxPublishRate,
        @Nullable Long maxPublishBytesRate,
        @Nullable Long maxDeliveryBytesRate,
        @Nullable Integer maxRetained,
        @Nullable Integer maxQueuedMessages) {

    static final int MAX_DESCRIPTION = 1000;

    /** The same request for tenant {@code id}. */
    TenantRequest withId(String id) {
        return new TenantRequest(
                id,
                description,
                maxConnections,
                maxSessions,
                maxSubscriptions,
                connectRate,
                maxPublishRate,
                maxPublishBytesRate,
                maxDeliveryBytesRate,
                maxRetained,
                maxQueuedMessages);
    }

    /** @throws ApiException 400 naming the problem */
    void check() {
        String problem = TenantTopics.idProblem(id);
        if (problem != null) {
            throw ApiException.badRequest(problem);
        }
        if (description != null && description.length() > MAX_DESCRIPTION) {
            throw ApiException.badRequest("description longer than " + MAX_DESCRIPTION + " characters");
        }
        notNegative("maxConnections", maxConnections);
        notNegative("maxSessions", maxSessions);
        notNegative("maxSubscriptions", maxSubscriptions);
        notNegative("connectRate", connectRate);
        notNegative("maxPublishRate", maxPublishRate);
        notNegative("maxPublishBytesRate", maxPublishBytesRate);
        notNegative("maxDeliveryBytesRate", maxDeliveryBytesRate);
        notNegative("maxRetained", maxRetained);
        if (maxQueuedMessages != null && maxQueuedMessages < 1) {
            throw ApiException.badRequest("maxQueuedMessages must be at least 1: " + maxQueuedMessages);
        }
    }

    private static void notNegative(String name, @Nullable Number value) {
        if (value != null && value.longValue() < 0) {
            throw ApiException.badRequest(name + " must not be negative: " + value);
        }
    }

    /** The quotas for a log line. */
    String quotas() {
        return "connections " + limit(maxConnections) + ", persistent sessions " + limit(maxSessions)
                + ", subscriptions " + limit(maxSubscriptions) + ", CONNECTs per second " + limit(connectRate)
                + ", PUBLISHes per second " + limit(maxPublishRate) + ", payload bytes per second "
                + limit(maxPublishBytesRate) + ", delivered payload bytes per second " + limit(maxDeliveryBytesRate)
                + ", retained messages " + limit(maxRetained)
                + ", queued messages per session "
                + (maxQueuedMessages == null ? "the global limit" : maxQueuedMessages.toString());
    }

    private static String limit(@Nullable Number max) {
        return max == null ? "unlimited" : max.toString();
    }
}
