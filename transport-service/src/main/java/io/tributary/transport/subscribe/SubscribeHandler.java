package io.tributary.transport.subscribe;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.mqtt.MqttFixedHeader;
import io.netty.handler.codec.mqtt.MqttMessageIdAndPropertiesVariableHeader;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttQoS;
import io.netty.handler.codec.mqtt.MqttReasonCodes.Disconnect;
import io.netty.handler.codec.mqtt.MqttReasonCodes.SubAck;
import io.netty.handler.codec.mqtt.MqttReasonCodes.UnsubAck;
import io.netty.handler.codec.mqtt.MqttSubAckMessage;
import io.netty.handler.codec.mqtt.MqttSubAckPayload;
import io.netty.handler.codec.mqtt.MqttSubscribeMessage;
import io.netty.handler.codec.mqtt.MqttSubscriptionOption;
import io.netty.handler.codec.mqtt.MqttTopicSubscription;
import io.netty.handler.codec.mqtt.MqttUnsubAckMessage;
import io.netty.handler.codec.mqtt.MqttUnsubAckPayload;
import io.netty.handler.codec.mqtt.MqttUnsubscribeMessage;
import io.tributary.common.session.SessionApi;
import io.tributary.common.tenant.TenantNamespace;
import io.tributary.common.topic.SharedFilters;
import io.tributary.common.topic.TopicFilters;
import io.tributary.transport.acl.AclDenials;
import io.tributary.transport.acl.ReadPermission;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.connection.OutboundMessage;
import io.tributary.transport.connection.ProblemInformation;
import io.tributary.transport.connection.SubscriptionOptions;
import io.tributary.transport.delivery.OutboundDelivery;
import io.tributary.transport.index.LocalSubscriptions;
import io.tributary.transport.limits.ClientLimits;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.replay.ReplayRequest;
import io.tributary.transport.replay.Replays;
import io.tributary.transport.sessionclient.SessionServiceClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SUBSCRIBE and UNSUBSCRIBE. Session-service records the change durably and publishes it to the routers before
 * it answers, so by the time SUBACK leaves, messages published afterwards reach the new subscriber. Packets the
 * client pipelined behind it wait in {@link SubscriptionBarrier} until this handler reports it settled; SUBSCRIBEs
 * (or UNSUBSCRIBEs) pipelined one behind the other go to session-service together ({@link PipelinedCalls}). The local
 * index is updated first-thing on the answer, on the event loop. The answer also carries the retained messages each
 * granted subscription must get (session-service applied Retain Handling); they are sent right after SUBACK.
 * Shared subscriptions ({@code $share/g/f}, MQTT 5 section 4.8.2, also from 3.x clients) go the same way; which
 * member gets a message is decided by the routers, and they never get retained messages at SUBSCRIBE.
 * An MQTT 5 SUBSCRIBE may ask for history ({@link ReplayRequest}); its filters then start a replay once they are in
 * the local index, or are refused (0x83 / 0x97) with the reason when the request cannot run.
 */
@ChannelHandler.Sharable
public final class SubscribeHandler extends ChannelInboundHandlerAdapter {

    /** MQTT 3.1.1 SUBACK Failure (section 3.9.3): the one refusal 3.x has, so every MQTT 5 refusal becomes it. */
    private static final int FAILURE_V3 = MqttQoS.FAILURE.value();
    /** MQTT 5 SUBACK refusals. */
    private static final int UNSPECIFIED_ERROR = Byte.toUnsignedInt(SubAck.UNSPECIFIED_ERROR.byteValue());

    private static final int TOPIC_FILTER_INVALID = Byte.toUnsignedInt(SubAck.TOPIC_FILTER_INVALID.byteValue());
    private static final int NOT_AUTHORIZED = Byte.toUnsignedInt(SubAck.NOT_AUTHORIZED.byteValue());
    private static final int QUOTA_EXCEEDED = Byte.toUnsignedInt(SubAck.QUOTA_EXCEEDED.byteValue());
    /** MQTT 5 UNSUBACK refusal when session-service could not record the unsubscription. */
    private static final short UNSUBACK_UNSPECIFIED_ERROR =
            (short) Byte.toUnsignedInt(UnsubAck.UNSPECIFIED_ERROR.byteValue());

    private static final Logger log = LoggerFactory.getLogger(SubscribeHandler.class);

    private final String nodeId;
    /** SUBSCRIBEs and UNSUBSCRIBEs a client pipelined go to session-service together, in order. */
    private final PipelinedCalls<SessionApi.SubscribeRequest, SessionApi.SubscribeResponse> subscribeCalls;

    private final PipelinedCalls<SessionApi.UnsubscribeRequest, SessionApi.UnsubscribeResponse> unsubscribeCalls;
    private final LocalSubscriptions subscriptions;
    private final Disconnector disconnector;
    private final OutboundDelivery delivery;
    private final TransportMetrics metrics;
    private final ClientLimits limits;
    /** Null when the node offers no replay (unit tests): replay properties are then not looked at. */
    private final Replays replays;

    public SubscribeHandler(
            String nodeId,
            SessionServiceClient sessions,
            LocalSubscriptions subscriptions,
            Disconnector disconnector,
            OutboundDelivery delivery,
            TransportMetrics metrics) {
        this(nodeId, sessions, subscriptions, disconnector, delivery, metrics, ClientLimits.NONE, null);
    }

    public SubscribeHandler(
            String nodeId,
            SessionServiceClient sessions,
            LocalSubscriptions subscriptions,
            Disconnector disconnector,
            OutboundDelivery delivery,
            TransportMetrics metrics,
            ClientLimits limits,
            Replays replays) {
        this.replays = replays;
        this.limits = limits;
        this.metrics = metrics;
        this.nodeId = nodeId;
        this.subscribeCalls = new PipelinedCalls<>(sessions::subscribeAll);
        this.unsubscribeCalls = new PipelinedCalls<>(sessions::unsubscribeAll);
        this.subscriptions = subscriptions;
        this.disconnector = disconnector;
        this.delivery = delivery;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof MqttSubscribeMessage subscribe) {
            onSubscribe(ctx, ClientConnection.of(ctx.channel()), subscribe);
        } else if (msg instanceof MqttUnsubscribeMessage unsubscribe) {
            onUnsubscribe(ctx, ClientConnection.of(ctx.channel()), unsubscribe);
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    private void onSubscribe(ChannelHandlerContext ctx, ClientConnection connection, MqttSubscribeMessage message) {
        int packetId = message.variableHeader().messageId();
        boolean v5 = connection.isMqtt5();
        List<MqttTopicSubscription> requested = message.payload().topicSubscriptions();
        if (requested.isEmpty()) {
            // MQTT 3.1.1 section 3.8.3 / 5.0 section 3.8.3: at least one filter; the decoder lets an empty one through.
            disconnector.disconnect(
                    ctx.channel(), Disconnect.PROTOCOL_ERROR, "protocol_error", "SUBSCRIBE without topic filters");
            return;
        }
        int subscriptionId = 0;
        if (v5) {
            List<? extends MqttProperties.MqttProperty> ids = message.idAndPropertiesVariableHeader()
                    .properties()
                    .getProperties(MqttProperties.SUBSCRIPTION_IDENTIFIER);
            if (ids.size() > 1 || (ids.size() == 1 && (Integer) ids.get(0).value() == 0)) {
                // MQTT 5 section 3.8.2.1.2: at most one identifier, and never 0.
                disconnector.disconnect(
                        ctx.channel(),
                        Disconnect.PROTOCOL_ERROR,
                        "protocol_error",
                        ids.size() > 1
                                ? "SUBSCRIBE with more than one Subscription Identifier"
                                : "SUBSCRIBE with Subscription Identifier 0");
                return;
            }
            subscriptionId = ids.isEmpty() ? 0 : (Integer) ids.get(0).value();
        }
        // MQTT 3.x has no user properties: only MQTT 5 can ask for a replay.
        ReplayRequest.Verdict replay = v5 && replays != null
                ? replays.verdict(
                        connection, message.idAndPropertiesVariableHeader().properties())
                : null;
        if (replay != null && replay.refused()) {
            metrics.replay("refused");
            log.info("Replay refused to '{}': {}", connection.clientId(), replay.problem());
        }
        int[] codes = new int[requested.size()];
        List<String> problems = new ArrayList<>();
        List<Integer> forwardedIndexes = new ArrayList<>();
        List<SessionApi.Subscription> forwarded = new ArrayList<>();
        int subscriptionsLeft = limits.subscriptionsLeft(connection, subscriptions.filterCount(connection));
        TenantNamespace namespace = connection.namespace();
        int newFilters = 0;
        for (int i = 0; i < requested.size(); i++) {
            MqttTopicSubscription s = requested.get(i);
            String filter = s.topicFilter();
            boolean sharedFilter = SharedFilters.isShared(filter);
            if (sharedFilter && v5 && s.option().isNoLocal()) {
                // MQTT 5 section 3.8.3.1: No Local on a shared subscription is a protocol error.
                disconnector.disconnect(
                        ctx.channel(),
                        Disconnect.PROTOCOL_ERROR,
                        "protocol_error",
                        "No Local set on the shared subscription '" + filter + "'");
                if (replay != null && !replay.refused()) {
                    replays.release(connection);
                }
                return;
            }
            String problem = sharedFilter ? SharedFilters.problem(filter) : TopicFilters.topicFilterProblem(filter);
            if (problem != null) {
                codes[i] = v5 ? TOPIC_FILTER_INVALID : FAILURE_V3;
                problems.add("'" + filter + "': " + problem);
            } else if (limits.tooManyLevels(connection, filter)) {
                codes[i] = v5 ? TOPIC_FILTER_INVALID : FAILURE_V3;
                problems.add(
                        "'" + filter + "': more than " + limits.properties().maxTopicLevels() + " levels");
            } else if (!ReadPermission.maySubscribe(connection, filter)) {
                // $tenant/... holds the tenants' namespaces: nobody subscribes there by name, whatever the ACL.
                // Refused here and never sent to session-service, so it is neither stored nor ever matched.
                codes[i] = v5 ? NOT_AUTHORIZED : FAILURE_V3;
                problems.add("'" + filter + "': not authorized");
                AclDenials.subscribeDenied(metrics, connection, filter);
            } else if (!subscriptions.holds(connection, namespace.filter(filter)) && newFilters >= subscriptionsLeft) {
                // Replacing a subscription the session holds is always allowed; only new ones count.
                codes[i] = v5 ? QUOTA_EXCEEDED : FAILURE_V3;
                problems.add("'" + filter + "': subscription limit reached");
                limits.subscriptionRefused(connection, filter);
            } else if (replay != null && (replay.refused() || sharedFilter)) {
                // Not subscribed either: a subscriber asking for history must not take live traffic alone for it.
                codes[i] = replay.refused() ? replay.code() : ReplayRequest.NOT_ACCEPTED;
                problems.add("'" + filter + "': "
                        + (replay.refused() ? replay.problem() : "replay is not offered for shared subscriptions"));
            } else {
                // Stored, routed and indexed under its internal name (mounted in the tenant's namespace).
                String internal = namespace.filter(filter);
                if (!subscriptions.holds(connection, internal)) {
                    newFilters++;
                }
                MqttSubscriptionOption o = s.option();
                forwardedIndexes.add(i);
                forwarded.add(new SessionApi.Subscription(
                        internal,
                        o.qos().value(),
                        v5 && o.isNoLocal(),
                        v5 && o.isRetainAsPublished(),
                        v5 ? o.retainHandling().value() : 0,
                        subscriptionId == 0 ? null : subscriptionId));
            }
        }
        boolean replayGranted = replay != null && !replay.refused();
        if (forwarded.isEmpty()) {
            if (replayGranted) {
                replays.release(connection);
            }
            ctx.writeAndFlush(subAck(connection, packetId, codes, problems));
            SubscriptionBarrier.settled(ctx.channel());
            return;
        }
        int finalSubscriptionId = subscriptionId;
        int pendingNew = newFilters;
        limits.pendingSubscriptions(connection, pendingNew);
        SessionApi.SubscribeRequest request =
                new SessionApi.SubscribeRequest(connection.clientId(), connection.epoch(), nodeId, forwarded);
        subscribeCalls
                .submit(ctx, connection, request)
                .whenComplete((response, failure) -> ctx.executor().execute(() -> {
                    limits.pendingSubscriptions(connection, -pendingNew);
                    Map<String, SubscriptionOptions> replayed = new LinkedHashMap<>();
                    boolean answered = false;
                    try {
                        answered = subscribed(
                                ctx,
                                connection,
                                packetId,
                                v5,
                                codes,
                                problems,
                                forwardedIndexes,
                                forwarded,
                                finalSubscriptionId,
                                response,
                                failure,
                                replayGranted ? replayed : null);
                    } finally {
                        if (replayGranted) {
                            if (!answered || replayed.isEmpty()) {
                                replays.release(connection);
                            } else {
                                replays.start(connection, replayed, replay.request());
                            }
                        }
                    }
                    if (answered) {
                        // In effect (recorded, in the feed, in the local index): packets sent behind it may go on.
                        SubscriptionBarrier.settled(ctx.channel());
                    }
                }));
    }

    /**
     * The session-service answer to a SUBSCRIBE, on the event loop: granted subscriptions into the local index,
     * SUBACK, retained messages.
     *
     * @param replayed collects the granted subscriptions a replay was asked for, or null when none was
     * @return false when the connection is closing instead (taken over, closed meanwhile): no SUBACK was sent
     */
    private boolean subscribed(
            ChannelHandlerContext ctx,
            ClientConnection connection,
            int packetId,
            boolean v5,
            int[] codes,
            List<String> problems,
            List<Integer> forwardedIndexes,
            List<SessionApi.Subscription> forwarded,
            int finalSubscriptionId,
            SessionApi.SubscribeResponse response,
            Throwable failure,
            Map<String, SubscriptionOptions> replayed) {
        if (failure != null && unwrap(failure) instanceof SessionServiceClient.StaleEpochException) {
            connection.markTakenOver();
            disconnector.disconnect(ctx.channel(), Disconnect.SESSION_TAKEN_OVER, null, "session taken over");
            return false;
        }
        if (!ctx.channel().isActive()) {
            // Closed while session-service answered: its local subscriptions are already gone, and
            // adding these now would leave a dead subscriber in the node's index.
            return false;
        }
        List<OutboundMessage> retained = new ArrayList<>();
        long now = System.currentTimeMillis();
        for (int j = 0; j < forwardedIndexes.size(); j++) {
            int code = failure != null || response.reasonCodes().size() <= j
                    ? UNSPECIFIED_ERROR
                    : response.reasonCodes().get(j);
            if (!v5 && code >= 0x80) {
                code = FAILURE_V3;
            }
            codes[forwardedIndexes.get(j)] = code;
            SessionApi.Subscription s = forwarded.get(j);
            if (code <= 2) {
                SubscriptionOptions options =
                        new SubscriptionOptions(code, s.noLocal(), s.retainAsPublished(), finalSubscriptionId);
                subscriptions.add(connection, s.filter(), options);
                Replays.forget(connection, s.filter());
                if (replayed != null) {
                    replayed.put(s.filter(), options);
                }
                if (response.retained() != null && response.retained().size() > j) {
                    retained.addAll(RetainedDeliveries.of(response.retained().get(j), code, finalSubscriptionId, now));
                }
            } else {
                problems.add("'" + connection.namespace().clientFilter(s.filter()) + "': "
                        + (failure != null ? "the subscription could not be recorded" : "refused"));
            }
        }
        ctx.writeAndFlush(subAck(connection, packetId, codes, problems));
        // After SUBACK, through the same path as live messages (in-flight window, aliases, size limit).
        for (OutboundMessage m : retained) {
            delivery.deliver(connection, m);
        }
        return true;
    }

    private void onUnsubscribe(ChannelHandlerContext ctx, ClientConnection connection, MqttUnsubscribeMessage message) {
        int packetId = message.variableHeader().messageId();
        List<String> clientFilters = message.payload().topics();
        if (clientFilters.isEmpty()) {
            // MQTT 3.1.1 section 3.10.3 / 5.0 section 3.10.3: at least one filter.
            disconnector.disconnect(
                    ctx.channel(), Disconnect.PROTOCOL_ERROR, "protocol_error", "UNSUBSCRIBE without topic filters");
            return;
        }
        // The names the subscriptions are stored under. A reserved one ($tenant/...) was never granted: a tenant's
        // client's maps into its own namespace, a global client's is simply not found.
        TenantNamespace namespace = connection.namespace();
        List<String> filters = clientFilters.stream()
                .map(f -> isValid(f) ? namespace.filter(f) : f)
                .toList();
        SessionApi.UnsubscribeRequest request =
                new SessionApi.UnsubscribeRequest(connection.clientId(), connection.epoch(), filters);
        unsubscribeCalls
                .submit(ctx, connection, request)
                .whenComplete((response, failure) -> ctx.executor().execute(() -> {
                    if (failure != null && unwrap(failure) instanceof SessionServiceClient.StaleEpochException) {
                        connection.markTakenOver();
                        disconnector.disconnect(
                                ctx.channel(), Disconnect.SESSION_TAKEN_OVER, null, "session taken over");
                        return;
                    }
                    short[] codes = new short[filters.size()];
                    List<String> problems = new ArrayList<>();
                    for (int i = 0; i < filters.size(); i++) {
                        boolean ok = failure == null
                                && response.reasonCodes().size() > i
                                && response.reasonCodes().get(i) < 0x80;
                        codes[i] = failure != null
                                ? UNSUBACK_UNSPECIFIED_ERROR
                                : response.reasonCodes().size() > i
                                        ? response.reasonCodes().get(i).shortValue()
                                        : UNSUBACK_UNSPECIFIED_ERROR;
                        if (ok) {
                            subscriptions.remove(connection, filters.get(i));
                            Replays.forget(connection, filters.get(i));
                        } else if (codes[i] >= 0x80) {
                            problems.add("'" + clientFilters.get(i) + "': "
                                    + (failure != null ? "the unsubscription could not be recorded" : "refused"));
                        }
                    }
                    if (failure != null && !connection.isMqtt5()) {
                        // MQTT 3.1.1 UNSUBACK cannot report a failure; acknowledging would lie.
                        disconnector.disconnect(
                                ctx.channel(),
                                Disconnect.UNSPECIFIED_ERROR,
                                null,
                                "UNSUBSCRIBE could not be recorded: "
                                        + unwrap(failure).getMessage());
                        return;
                    }
                    MqttFixedHeader fixed =
                            new MqttFixedHeader(MqttMessageType.UNSUBACK, false, MqttQoS.AT_MOST_ONCE, false, 0);
                    MqttMessageIdAndPropertiesVariableHeader variable = new MqttMessageIdAndPropertiesVariableHeader(
                            packetId, ProblemInformation.forAck(connection, reason(problems)));
                    ctx.writeAndFlush(new MqttUnsubAckMessage(
                            fixed, variable, connection.isMqtt5() ? new MqttUnsubAckPayload(codes) : null));
                    SubscriptionBarrier.settled(ctx.channel());
                }));
    }

    private static MqttSubAckMessage subAck(
            ClientConnection connection, int packetId, int[] codes, List<String> problems) {
        MqttFixedHeader fixed = new MqttFixedHeader(MqttMessageType.SUBACK, false, MqttQoS.AT_MOST_ONCE, false, 0);
        return new MqttSubAckMessage(
                fixed,
                new MqttMessageIdAndPropertiesVariableHeader(
                        packetId, ProblemInformation.forAck(connection, reason(problems))),
                new MqttSubAckPayload(codes));
    }

    /** One reason string for all refused filters of a packet, or null when none was refused. */
    private static String reason(List<String> problems) {
        return problems.isEmpty() ? null : String.join("; ", problems);
    }

    /** Only a well-formed filter is mapped into the namespace; a malformed one goes as sent and is not found. */
    private static boolean isValid(String filter) {
        return filter != null
                && (SharedFilters.isShared(filter)
                        ? SharedFilters.problem(filter) == null
                        : TopicFilters.topicFilterProblem(filter) == null);
    }

    private static Throwable unwrap(Throwable t) {
        return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    }
}
