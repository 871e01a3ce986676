package io.tributary.transport.connect;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.mqtt.MqttConnectMessage;
import io.netty.handler.codec.mqtt.MqttConnectPayload;
import io.netty.handler.codec.mqtt.MqttConnectReturnCode;
import io.netty.handler.codec.mqtt.MqttConnectVariableHeader;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.netty.util.ReferenceCountUtil;
import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.DisconnectApi;
import io.tributary.transport.backpressure.ReadGate;
import io.tributary.transport.connection.ClientCapabilities;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.MessagePropertyCheck;
import io.tributary.transport.sessionclient.RequestBatcher;
import io.tributary.transport.sessionclient.SessionServiceClient;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * First handler after the decoder: the connection's first packet must be a valid CONNECT. It asks session-service
 * for the session (epoch, session present, resumed subscriptions) without blocking the event loop, answers
 * CONNACK, arms the keep-alive check and removes itself. Packets the client pipelines behind CONNECT are held and
 * replayed after CONNACK, as MQTT allows clients to send them before the CONNACK arrives.
 *
 * <p>Whether a CONNECT may proceed is decided by {@link ConnectRules}; this handler keeps the connection's state
 * until CONNACK ({@link HeldPackets}, the connect timeout) and the order of the steps. A refusal is
 * {@link ConnectRefusals}'; what the CONNECT asks for is read into a {@link ConnectAttempt}; the accepted session
 * is put into service by {@link ConnectAcceptance}.
 */
public final class ConnectHandler extends ChannelInboundHandlerAdapter {

    private final ConnectContext context;
    private final HeldPackets held = new HeldPackets();
    private ScheduledFuture<?> connectTimeout;
    private boolean connecting;
    /** The client id of the CONNECT once read (empty when the client asked for one), for the refusal log line. */
    private String connectingClientId;

    public ConnectHandler(ConnectContext context) {
        this.context = context;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        long timeoutMs = context.properties().mqtt().connectTimeout().toMillis();
        connectTimeout = ctx.executor()
                .schedule(
                        () -> context.disconnector()
                                .close(ctx.channel(), "connect_timeout", "no CONNECT within " + timeoutMs + " ms"),
                        timeoutMs,
                        TimeUnit.MILLISECONDS);
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        held.release();
        if (connectTimeout != null) {
            connectTimeout.cancel(false);
        }
        super.channelInactive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (connecting) {
            if (!held.hold(msg)) {
                context.disconnector()
                        .close(
                                ctx.channel(),
                                "too_many_pipelined",
                                "more than " + HeldPackets.MAX_HELD_PACKETS + " packets sent before CONNACK");
            }
            return;
        }
        if (!(msg instanceof MqttMessage message)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        try {
            if (message.decoderResult().isFailure()) {
                ConnectRefusals.refuseUndecodable(
                        ctx, context.metrics(), context.disconnector(), connectingClientId, message);
                return;
            }
            if (message.fixedHeader().messageType() != MqttMessageType.CONNECT) {
                context.disconnector()
                        .close(
                                ctx.channel(),
                                "first_packet_not_connect",
                                "first packet is " + message.fixedHeader().messageType() + ", not CONNECT");
                return;
            }
            connect(ctx, (MqttConnectMessage) message);
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void connect(ChannelHandlerContext ctx, MqttConnectMessage message) {
        MqttConnectVariableHeader header = message.variableHeader();
        MqttConnectPayload payload = message.payload();
        boolean v5 = MqttVersion.fromProtocolNameAndLevel(header.name(), (byte) header.version()) == MqttVersion.MQTT_5;
        MqttProperties props = header.properties();

        String sentClientId = payload.clientIdentifier() == null ? "" : payload.clientIdentifier();
        connectingClientId = sentClientId;
        MqttProperties.MqttProperty<?> authenticationMethod =
                v5 ? props.getProperty(MqttProperties.AUTHENTICATION_METHOD) : null;
        ConnectVerdict verdict = ConnectRules.check(new ConnectFacts(
                v5,
                v5 ? propertiesProblem(props, header.isWillFlag() ? payload.willProperties() : null) : null,
                authenticationMethod == null ? null : authenticationMethod.value(),
                sentClientId,
                header.isCleanSession(),
                header.isWillFlag() ? payload.willTopic() : null,
                context.liveness().registered(),
                context.producer().unavailable(),
                WarmUpMark.carries(ctx.channel())));
        if (verdict instanceof ConnectVerdict.Refuse r) {
            refuse(ctx, r.code(), r.metricCause(), r.problem());
            return;
        }
        if (verdict instanceof ConnectVerdict.Close c) {
            context.disconnector().close(ctx.channel(), c.metricCause(), c.problem());
            return;
        }
        boolean assigned = ((ConnectVerdict.Proceed) verdict).assignClientId();
        String clientId = assigned ? "auto-" + UUID.randomUUID() : sentClientId;
        connectingClientId = clientId;
        ConnectAttempt attempt = ConnectAttempt.of(
                message,
                clientId,
                assigned,
                context.properties().mqtt().maxKeepAliveSeconds(),
                context.liveness().incarnation());

        connecting = true;
        ReadGate.pause(ctx.channel(), ReadGate.Reason.CONNECTING);
        context.sessions()
                .connect(attempt.request(message, context.properties().nodeId(), ctx.channel()))
                .whenComplete((response, failure) ->
                        ctx.executor().execute(() -> onSessionAnswer(ctx, attempt, response, failure)));
    }

    /** Session-service answered the CONNECT, on the event loop. */
    /**
     * What is wrong with an MQTT 5 CONNECT's properties or its will's ({@code willProperties} null: no will); a will's
     * is refused as a protocol error (0x82) also where a PUBLISH would be malformed (0x81), as the CONNECT's are.
     */
    private static String propertiesProblem(MqttProperties props, MqttProperties willProperties) {
        String problem = ClientCapabilities.protocolProblem(props);
        MessagePropertyCheck.Problem will = problem == null ? MessagePropertyCheck.problem(willProperties) : null;
        return will == null ? problem : "a will with " + will.text();
    }

    private void onSessionAnswer(
            ChannelHandlerContext ctx, ConnectAttempt attempt, ConnectApi.ConnectResponse response, Throwable failure) {
        if (failure != null) {
            refuseUnopened(ctx, attempt.mqtt5(), failure);
            return;
        }
        ClientConnection connection = attempt.connection(
                ctx.channel(), response, context.properties().mqtt().topicAliasMaximum());
        if (!attempt.incarnation().equals(context.liveness().incarnation())) {
            // The node was fenced while session-service answered: that session was ended with the old
            // incarnation, so this connection must not live on.
            refuse(
                    ctx,
                    ConnectRules.serverUnavailable(attempt.mqtt5()),
                    "node_fenced",
                    "node incarnation changed during CONNECT");
            return;
        }
        if (connection.queueBacked()
                && context.inboundQos2() != null
                && (response.sessionPresent() || context.qos2ExactlyOnce())) {
            loadInboundQos2(ctx, connection, response, attempt);
            return;
        }
        accept(ctx, connection, response, attempt);
    }

    /** Session-service did not open the session: refused, or it could not be asked. */
    private void refuseUnopened(ChannelHandlerContext ctx, boolean v5, Throwable failure) {
        Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
        if (cause instanceof SessionServiceClient.ConnectRefusedException refused) {
            // Session-service logged it with the details; the node logs one line as for any refusal.
            refuse(
                    ctx,
                    ConnAcks.refusedBySessionService(v5, refused.refusal().reason()),
                    refused.refusal().message());
            return;
        }
        if (cause instanceof RequestBatcher.OverloadedException) {
            refuse(ctx, ConnAcks.overloaded(v5), cause.getMessage());
            return;
        }
        refuse(
                ctx,
                ConnectRules.serverUnavailable(v5),
                "session_unavailable",
                "session-service: " + cause.getMessage());
    }

    /**
     * A resumed persistent session gets back the QoS 2 packet ids it acknowledged with PUBREC over an earlier
     * connection (on any node), before any PUBLISH of this connection is read: a re-sent one is then recognised.
     */
    private void loadInboundQos2(
            ChannelHandlerContext ctx,
            ClientConnection connection,
            ConnectApi.ConnectResponse response,
            ConnectAttempt attempt) {
        CompletableFuture<List<Integer>> loaded = response.sessionPresent()
                ? context.inboundQos2().inboundQos2Ids(connection.clientId())
                : CompletableFuture.completedFuture(List.of());
        // Exactly-once QoS 2 keys its markers by session incarnation too: read it along (one Redis round trip).
        CompletableFuture<String> incarnation = context.qos2ExactlyOnce()
                ? context.inboundQos2().sessionIncarnation(connection.clientId())
                : CompletableFuture.completedFuture(null);
        loaded.thenCombine(incarnation, (ids, created) -> {
                    connection.inbound().qos2Incarnation(created);
                    return ids;
                })
                .whenComplete((ids, failure) -> ctx.executor().execute(() -> {
                    if (failure != null) {
                        // Accepting without them could store a re-sent QoS 2 publish twice; the session opened at
                        // session-service is closed again like one whose client left during CONNECT.
                        context.sessions()
                                .disconnect(new DisconnectApi.DisconnectRequest(
                                        connection.clientId(),
                                        connection.epoch(),
                                        context.properties().nodeId(),
                                        connection.sessionExpirySeconds()));
                        refuse(
                                ctx,
                                ConnectRules.serverUnavailable(connection.isMqtt5()),
                                "redis_unavailable",
                                "inbound QoS 2 packet ids could not be read: " + failure);
                        return;
                    }
                    connection.inbound().restoreQos2(ids);
                    accept(ctx, connection, response, attempt);
                }));
    }

    /** Once accepted, this handler's work is done: it leaves the pipeline and the held packets follow CONNACK. */
    private void accept(
            ChannelHandlerContext ctx,
            ClientConnection connection,
            ConnectApi.ConnectResponse response,
            ConnectAttempt attempt) {
        if (!ConnectAcceptance.accept(ctx, context, connection, response, attempt)) {
            return;
        }
        if (connectTimeout != null) {
            connectTimeout.cancel(false);
        }
        connecting = false;
        ctx.pipeline().remove(this);
        held.replay(ctx);
        ReadGate.resume(ctx.channel(), ReadGate.Reason.CONNECTING);
    }

    private void refuse(ChannelHandlerContext ctx, MqttConnectReturnCode code, String metricCause, String cause) {
        ConnectRefusals.refuse(ctx, context.metrics(), connectingClientId, code, metricCause, cause);
    }

    /** Refuses with {@code refusal}'s code; logged and counted as for any refused CONNECT. */
    private void refuse(ChannelHandlerContext ctx, ConnAcks.Refusal refusal, String cause) {
        refuse(ctx, refusal.code(), refusal.metricCause(), cause);
    }
}
