package io.tributary.transport.subscribe;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttReasonCodes.Disconnect;
import io.netty.handler.codec.mqtt.MqttReasonCodes.SubAck;
import io.netty.handler.codec.mqtt.MqttSubscribeMessage;
import io.netty.handler.codec.mqtt.MqttUnsubscribeMessage;
import io.tributary.common.session.SubscribeApi;
import io.tributary.transport.acl.AclDenials;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.connection.OutboundMessage;
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
 *
 * <p>What becomes of each filter before session-service is asked is decided by {@link SubscribeRules} (typed
 * {@link SubscribeVerdict}s); UNSUBSCRIBE is carried out by {@link Unsubscriptions}.
 */
@ChannelHandler.Sharable
public final class SubscribeHandler extends ChannelInboundHandlerAdapter {

    /** MQTT 5 SUBACK refusal when session-service could not record the subscription. */
    private static final int UNSPECIFIED_ERROR = Byte.toUnsignedInt(SubAck.UNSPECIFIED_ERROR.byteValue());

    private static final Logger log = LoggerFactory.getLogger(SubscribeHandler.class);

    private final String nodeId;
    /** SUBSCRIBEs a client pipelined go to session-service together, in order. */
    private final PipelinedCalls<SubscribeApi.SubscribeRequest, SubscribeApi.SubscribeResponse> subscribeCalls;

    private final Unsubscriptions unsubscriptions;
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
        this.unsubscriptions = new Unsubscriptions(sessions, subscriptions, disconnector);
        this.subscriptions = subscriptions;
        this.disconnector = disconnector;
        this.delivery = delivery;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof MqttSubscribeMessage subscribe) {
            onSubscribe(ctx, ClientConnection.of(ctx.channel()), subscribe);
        } else if (msg instanceof MqttUnsubscribeMessage unsubscribe) {
            unsubscriptions.onUnsubscribe(ctx, ClientConnection.of(ctx.channel()), unsubscribe);
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    private void onSubscribe(ChannelHandlerContext ctx, ClientConnection connection, MqttSubscribeMessage message) {
        boolean v5 = connection.isMqtt5();
        MqttProperties properties = message.idAndPropertiesVariableHeader().properties();
        List<Integer> subscriptionIds = v5
                ? properties.getProperties(MqttProperties.SUBSCRIPTION_IDENTIFIER).stream()
                        .map(p -> (Integer) p.value())
                        .toList()
                : List.of();
        SubscribeVerdict.ProtocolError malformed = SubscribeRules.packetProblem(
                message.payload().topicSubscriptions().size(), subscriptionIds);
        if (malformed != null) {
            disconnector.disconnect(ctx.channel(), Disconnect.PROTOCOL_ERROR, "protocol_error", malformed.problem());
            return;
        }
        // MQTT 3.x has no user properties: only MQTT 5 can ask for a replay.
        ReplayRequest.Verdict replay = v5 && replays != null ? replays.verdict(connection, properties) : null;
        if (replay != null && replay.refused()) {
            metrics.replay("refused");
            log.info("Replay refused to '{}': {}", connection.clientId(), replay.problem());
        }
        SubscribeVerdict verdict = SubscribeRules.decide(
                new SubscribeRules.Facts(
                        v5,
                        message.payload().topicSubscriptions(),
                        subscriptionIds.isEmpty() ? 0 : subscriptionIds.get(0),
                        replay,
                        limits.subscriptionsLeft(connection, subscriptions.filterCount(connection)),
                        limits.properties().maxTopicLevels(),
                        connection.namespace(),
                        connection.permissions()),
                checks(connection));
        boolean replayGranted = replay != null && !replay.refused();
        if (verdict instanceof SubscribeVerdict.ProtocolError error) {
            disconnector.disconnect(ctx.channel(), Disconnect.PROTOCOL_ERROR, "protocol_error", error.problem());
            if (replayGranted) {
                replays.release(connection);
            }
            return;
        }
        SubscribeVerdict.Forward forward = (SubscribeVerdict.Forward) verdict;
        int packetId = message.variableHeader().messageId();
        if (forward.forwarded().isEmpty()) {
            if (replayGranted) {
                replays.release(connection);
            }
            ctx.writeAndFlush(SubscribeAcks.subAck(connection, packetId, forward.codes(), forward.problems()));
            SubscriptionBarrier.settled(ctx.channel());
            return;
        }
        forward(ctx, connection, packetId, forward, replayGranted ? replay : null);
    }

    /** What the rules ask of the session's state, answered from the local index and the client limits. */
    private SubscribeRules.Checks checks(ClientConnection connection) {
        return new SubscribeRules.Checks() {
            @Override
            public boolean tooManyLevels(String filter) {
                return limits.tooManyLevels(connection, filter);
            }

            @Override
            public boolean holds(String internalFilter) {
                return subscriptions.holds(connection, internalFilter);
            }

            @Override
            public void denied(String filter) {
                AclDenials.subscribeDenied(metrics, connection, filter);
            }

            @Override
            public void overSubscriptionLimit(String filter) {
                limits.subscriptionRefused(connection, filter);
            }
        };
    }

    /**
     * Sends the forwarded subscriptions to session-service and carries out its answer on the event loop.
     *
     * @param replay the replay granted to the SUBSCRIBE, or null when none was
     */
    private void forward(
            ChannelHandlerContext ctx,
            ClientConnection connection,
            int packetId,
            SubscribeVerdict.Forward forward,
            ReplayRequest.Verdict replay) {
        int pendingNew = forward.newFilters();
        limits.pendingSubscriptions(connection, pendingNew);
        SubscribeApi.SubscribeRequest request = new SubscribeApi.SubscribeRequest(
                connection.clientId(), connection.epoch(), nodeId, forward.forwarded());
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
                                forward,
                                response,
                                failure,
                                replay != null ? replayed : null);
                    } finally {
                        if (replay != null) {
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
            SubscribeVerdict.Forward forward,
            SubscribeApi.SubscribeResponse response,
            Throwable failure,
            Map<String, SubscriptionOptions> replayed) {
        if (SubscribeAcks.takenOver(failure)) {
            connection.markTakenOver();
            disconnector.disconnect(ctx.channel(), Disconnect.SESSION_TAKEN_OVER, null, "session taken over");
            return false;
        }
        if (!ctx.channel().isActive()) {
            // Closed while session-service answered: its local subscriptions are already gone, and
            // adding these now would leave a dead subscriber in the node's index.
            return false;
        }
        int[] codes = forward.codes();
        List<String> problems = forward.problems();
        int subscriptionId = forward.subscriptionId();
        List<OutboundMessage> retained = new ArrayList<>();
        long now = System.currentTimeMillis();
        for (int j = 0; j < forward.forwardedIndexes().size(); j++) {
            int code = failure != null || response.reasonCodes().size() <= j
                    ? UNSPECIFIED_ERROR
                    : response.reasonCodes().get(j);
            if (!connection.isMqtt5() && code >= 0x80) {
                code = SubscribeRules.FAILURE_V3;
            }
            codes[forward.forwardedIndexes().get(j)] = code;
            SubscribeApi.Subscription s = forward.forwarded().get(j);
            if (code <= 2) {
                SubscriptionOptions options =
                        new SubscriptionOptions(code, s.noLocal(), s.retainAsPublished(), subscriptionId);
                subscriptions.add(connection, s.filter(), options);
                Replays.forget(connection, s.filter());
                if (replayed != null) {
                    replayed.put(s.filter(), options);
                }
                if (response.retained() != null && response.retained().size() > j) {
                    retained.addAll(RetainedDeliveries.of(response.retained().get(j), code, subscriptionId, now));
                }
            } else {
                problems.add("'" + connection.namespace().clientFilter(s.filter()) + "': "
                        + (failure != null ? "the subscription could not be recorded" : "refused"));
            }
        }
        ctx.writeAndFlush(SubscribeAcks.subAck(connection, packetId, codes, problems));
        // After SUBACK, through the same path as live messages (in-flight window, aliases, size limit).
        for (OutboundMessage m : retained) {
            delivery.deliver(connection, m);
        }
        return true;
    }
}
