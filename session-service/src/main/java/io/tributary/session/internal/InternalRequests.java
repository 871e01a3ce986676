package io.tributary.session.internal;

import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.DisconnectApi;
import io.tributary.common.session.LivenessApi;
import io.tributary.common.session.SubscribeApi;
import io.tributary.common.topic.TopicFilters;
import io.tributary.session.expiry.ExpiryPolicy;
import io.tributary.session.web.ApiException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Shape checks of internal API requests (answered 400). MQTT-level outcomes such as an invalid topic filter are not
 * shape errors: they are answered with reason codes.
 */
public final class InternalRequests {

    private static final Pattern NODE_ID = Pattern.compile("[A-Za-z0-9._-]{1,200}");

    private InternalRequests() {}

    public static void check(ConnectApi.ConnectRequest r) {
        requireBody(r);
        clientId(r.clientId());
        nodeId(r.nodeId());
        expiry(r.sessionExpirySeconds());
        if (r.protocolVersion() < 3 || r.protocolVersion() > 5) {
            throw ApiException.badRequest("protocolVersion must be 3, 4 or 5: " + r.protocolVersion());
        }
        if (r.keepAliveSeconds() < 0 || r.keepAliveSeconds() > 65535) {
            throw ApiException.badRequest("keepAliveSeconds must be 0..65535: " + r.keepAliveSeconds());
        }
        if (r.nodeIncarnation() != null) {
            incarnation(r.nodeIncarnation());
        }
        if (r.will() != null) {
            will(r.will());
        }
    }

    public static void check(LivenessApi.HeartbeatRequest r) {
        requireBody(r);
        nodeId(r.nodeId());
        incarnation(r.incarnation());
    }

    private static void will(ConnectApi.Will w) {
        String problem = w.topic() == null ? "missing" : TopicFilters.topicNameProblem(w.topic());
        if (problem != null) {
            throw ApiException.badRequest("will topic invalid: " + problem);
        }
        if (w.payload() == null) {
            throw ApiException.badRequest("will payload is required (may be empty)");
        }
        if (w.qos() < 0 || w.qos() > 2) {
            throw ApiException.badRequest("will qos must be 0, 1 or 2: " + w.qos());
        }
        if (w.delaySeconds() < 0 || w.delaySeconds() > 0xFFFFFFFFL) {
            throw ApiException.badRequest("will delaySeconds must be 0..4294967295: " + w.delaySeconds());
        }
    }

    private static void incarnation(String incarnation) {
        if (incarnation == null || !NODE_ID.matcher(incarnation).matches()) {
            throw ApiException.badRequest("incarnation must match [A-Za-z0-9._-]{1,200}: " + incarnation);
        }
    }

    public static void check(SubscribeApi.SubscribeRequest r) {
        requireBody(r);
        clientId(r.clientId());
        epoch(r.epoch());
        nodeId(r.nodeId());
        nonEmpty(r.subscriptions(), "subscriptions");
        for (SubscribeApi.Subscription s : r.subscriptions()) {
            if (s == null || s.filter() == null) {
                throw ApiException.badRequest("every subscription needs a filter");
            }
            if (s.qos() < 0 || s.qos() > 2) {
                throw ApiException.badRequest("qos must be 0, 1 or 2: " + s.qos());
            }
            if (s.retainHandling() < 0 || s.retainHandling() > 2) {
                throw ApiException.badRequest("retainHandling must be 0, 1 or 2: " + s.retainHandling());
            }
            if (s.subscriptionId() != null && (s.subscriptionId() < 1 || s.subscriptionId() > 268_435_455)) {
                throw ApiException.badRequest("subscriptionId must be 1..268435455: " + s.subscriptionId());
            }
        }
    }

    public static void check(SubscribeApi.UnsubscribeRequest r) {
        requireBody(r);
        clientId(r.clientId());
        epoch(r.epoch());
        nonEmpty(r.filters(), "filters");
        if (r.filters().contains(null)) {
            throw ApiException.badRequest("filters must not contain null");
        }
    }

    public static void check(DisconnectApi.DisconnectRequest r) {
        requireBody(r);
        clientId(r.clientId());
        epoch(r.epoch());
        expiry(r.sessionExpirySeconds());
    }

    static void clientId(String clientId) {
        if (clientId == null || clientId.isEmpty()) {
            throw ApiException.badRequest("clientId is required");
        }
        // U+0000 separates filter and client id in subscription record keys; MQTT forbids it anyway.
        if (clientId.indexOf('\u0000') >= 0) {
            throw ApiException.badRequest("clientId must not contain U+0000");
        }
    }

    static void nodeId(String nodeId) {
        if (nodeId == null || !NODE_ID.matcher(nodeId).matches()) {
            throw ApiException.badRequest("nodeId must match [A-Za-z0-9._-]{1,200}: " + nodeId);
        }
    }

    private static void epoch(long epoch) {
        if (epoch < 1) {
            throw ApiException.badRequest("epoch must be positive: " + epoch);
        }
    }

    private static void expiry(long seconds) {
        if (seconds < 0 || seconds > ExpiryPolicy.NEVER) {
            throw ApiException.badRequest("sessionExpirySeconds must be 0..4294967295: " + seconds);
        }
    }

    private static void nonEmpty(List<?> list, String name) {
        if (list == null || list.isEmpty()) {
            throw ApiException.badRequest(name + " must not be empty");
        }
    }

    private static void requireBody(Object body) {
        if (body == null) {
            throw ApiException.badRequest("request body is required");
        }
    }
}
