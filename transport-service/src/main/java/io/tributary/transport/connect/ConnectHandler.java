package io.tributary.transport.connect;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.mqtt.MqttConnectMessage;
import io.netty.handler.codec.mqtt.MqttConnectPayload;
import io.netty.handler.codec.mqtt.MqttConnectReturnCode;
import io.netty.handler.codec.mqtt.MqttConnectVariableHeader;
import io.netty.handler.codec.mqtt.MqttIdentifierRejectedException;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageBuilders;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttReasonCodes.Disconnect;
import io.netty.handler.codec.mqtt.MqttUnacceptableProtocolVersionException;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.netty.util.ReferenceCountUtil;
import io.tributary.common.acl.TopicPermissions;
import io.tributary.common.session.SessionApi;
import io.tributary.common.tenant.TenantNamespace;
import io.tributary.sessionqueue.InboundQos2Store;
import io.tributary.sessionqueue.SessionQueueing;
import io.tributary.transport.backpressure.ReadGate;
import io.tributary.transport.connection.ClientCapabilities;
import io.tributary.transport.connection.ClientCertificate;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.ConnectionRegistry;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.connection.HandlerNames;
import io.tributary.transport.connection.ProblemInformation;
import io.tributary.transport.connection.SubscriptionOptions;
import io.tributary.transport.connection.WillMessage;
import io.tributary.transport.index.LocalSubscriptions;
import io.tributary.transport.liveness.NodeRegistration;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.publish.PublishRecords;
import io.tributary.transport.sessionclient.RequestBatcher;
import io.tributary.transport.sessionclient.SessionServiceClient;
import io.tributary.transport.sessionqueue.SessionQueueReader;
import io.tributary.transport.uplink.PublishProducer;
import java.util.ArrayDeque;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * First handler after the decoder: the connection's first packet must be a valid CONNECT. It asks session-service
 * for the session (epoch, session present, resumed subscriptions) without blocking the event loop, answers
 * CONNACK, arms the keep-alive check and removes itself. Packets the client pipelines behind CONNECT are held and
 * replayed after CONNACK, as MQTT allows clients to send them before the CONNACK arrives.
 */
public final class ConnectHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(ConnectHandler.class);
    private static final int MAX_HELD_PACKETS = 1000;
    private static final long NEVER_EXPIRES = 0xFFFFFFFFL;

    private final ConnectContext context;
    private final ArrayDeque<Object> held = new ArrayDeque<>();
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
        releaseHeld();
        if (connectTimeout != null) {
            connectTimeout.cancel(false);
        }
        super.channelInactive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (connecting) {
            if (held.size() >= MAX_HELD_PACKETS) {
                ReferenceCountUtil.release(msg);
                context.disconnector()
                        .close(
                                ctx.channel(),
                                "too_many_pipelined",
                                "more than " + MAX_HELD_PACKETS + " packets sent before CONNACK");
                return;
            }
            held.add(msg);
            return;
        }
        if (!(msg instanceof MqttMessage message)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        try {
            if (message.decoderResult().isFailure()) {
                refuseUndecodable(ctx, message);
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

    private void refuseUndecodable(ChannelHandlerContext ctx, MqttMessage message) {
        Throwable cause = message.decoderResult().cause();
        boolean isConnect =
                message.fixedHeader() != null && message.fixedHeader().messageType() == MqttMessageType.CONNECT;
        if (isConnect && cause instanceof MqttUnacceptableProtocolVersionException) {
            // MQTT 3.1.1 section 3.1.2.2: answer 0x01 and close; old clients only understand the 3.x CONNACK.
            refuse(
                    ctx,
                    MqttConnectReturnCode.CONNECTION_REFUSED_UNACCEPTABLE_PROTOCOL_VERSION,
                    "unsupported_protocol",
                    "unsupported protocol: " + cause.getMessage());
        } else if (isConnect && cause instanceof MqttIdentifierRejectedException) {
            refuse(
                    ctx,
                    MqttConnectReturnCode.CONNECTION_REFUSED_IDENTIFIER_REJECTED,
                    "client_id_rejected",
                    "client identifier rejected: " + cause.getMessage());
        } else if (cause instanceof TooLongFrameException) {
            context.disconnector().close(ctx.channel(), "packet_too_large", cause.getMessage());
        } else {
            context.disconnector()
                    .close(
                            ctx.channel(),
                            "malformed_connect",
                            "malformed " + (isConnect ? "CONNECT" : "first packet") + ": " + cause.getMessage());
        }
    }

    private void connect(ChannelHandlerContext ctx, MqttConnectMessage message) {
        MqttConnectVariableHeader header = message.variableHeader();
        MqttConnectPayload payload = message.payload();
        MqttVersion version = MqttVersion.fromProtocolNameAndLevel(header.name(), (byte) header.version());
        boolean v5 = version == MqttVersion.MQTT_5;
        MqttProperties props = header.properties();

        String sentClientId = payload.clientIdentifier() == null ? "" : payload.clientIdentifier();
        connectingClientId = sentClientId;
        MqttProperties.MqttProperty<?> authenticationMethod =
                v5 ? props.getProperty(MqttProperties.AUTHENTICATION_METHOD) : null;
        ConnectVerdict verdict = ConnectRules.check(new ConnectFacts(
                v5,
                v5 ? ClientCapabilities.protocolProblem(props) : null,
                authenticationMethod == null ? null : authenticationMethod.value(),
                sentClientId,
                header.isCleanSession(),
                header.isWillFlag() ? payload.willTopic() : null,
                context.liveness().registered(),
                context.producer().unavailable()));
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
        WillMessage will = header.isWillFlag()
                ? new WillMessage(
                        payload.willTopic(),
                        payload.willMessageInBytes(),
                        header.willQos(),
                        header.isWillRetain(),
                        payload.willProperties())
                : null;

        long expiry = v5
                ? intProperty(props, MqttProperties.SESSION_EXPIRY_INTERVAL, 0)
                : (header.isCleanSession() ? 0 : NEVER_EXPIRES);
        ClientCapabilities capabilities = v5 ? ClientCapabilities.fromConnect(props) : ClientCapabilities.DEFAULTS;
        int requestedKeepAlive = header.keepAliveTimeSeconds();
        // Lowered to the node's maximum for every protocol level; MQTT 5 clients are told (Server Keep Alive).
        int keepAlive = KeepAliveCap.effective(
                requestedKeepAlive, context.properties().mqtt().maxKeepAliveSeconds());

        connecting = true;
        ReadGate.pause(ctx.channel(), ReadGate.Reason.CONNECTING);
        String finalClientId = clientId;
        boolean finalAssigned = assigned;
        WillMessage finalWill = will;
        String incarnation = context.liveness().incarnation();
        // Verified by the TLS handshake already (mutual TLS); authentication maps it to credentials.
        ClientCertificate certificate = ClientCertificate.of(ctx.channel());
        SessionApi.ConnectRequest request = new SessionApi.ConnectRequest(
                clientId,
                context.properties().nodeId(),
                header.isCleanSession(),
                expiry,
                version.protocolLevel(),
                keepAlive,
                String.valueOf(ctx.channel().remoteAddress()),
                payload.userName(),
                incarnation,
                will == null ? null : PublishRecords.willForSession(will),
                header.hasPassword() ? payload.passwordInBytes() : null,
                certificate == null ? null : certificate.commonName());
        context.sessions()
                .connect(request)
                .whenComplete((response, failure) -> ctx.executor().execute(() -> {
                    if (failure != null) {
                        Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
                        if (cause instanceof SessionServiceClient.ConnectRefusedException refused) {
                            // Session-service logged it with the details; the node logs one line as for any refusal.
                            refuse(
                                    ctx,
                                    ConnAcks.refusedBySessionService(
                                            v5, refused.refusal().reason()),
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
                        return;
                    }
                    long granted = GrantedSessionExpiry.of(expiry, response);
                    ClientConnection connection = new ClientConnection(
                            ctx.channel(),
                            finalClientId,
                            response.epoch(),
                            version,
                            header.isCleanSession(),
                            keepAlive,
                            granted,
                            capabilities,
                            context.properties().mqtt().topicAliasMaximum(),
                            finalWill,
                            SessionQueueing.queueBacked(granted, response.sessionPresent()));
                    connection.sessionExpiryLowered(granted != expiry);
                    connection.namespace(TenantNamespace.of(response.tenant()));
                    if (!incarnation.equals(context.liveness().incarnation())) {
                        // The node was fenced while session-service answered: that session was ended with the old
                        // incarnation, so this connection must not live on.
                        refuse(
                                ctx,
                                ConnectRules.serverUnavailable(v5),
                                "node_fenced",
                                "node incarnation changed during CONNECT");
                        return;
                    }
                    if (connection.queueBacked()
                            && context.inboundQos2() != null
                            && (response.sessionPresent() || context.qos2ExactlyOnce())) {
                        loadInboundQos2(ctx, connection, response, finalAssigned, keepAlive != requestedKeepAlive);
                        return;
                    }
                    accept(ctx, connection, response, finalAssigned, keepAlive != requestedKeepAlive);
                }));
    }

    /**
     * A resumed persistent session gets back the QoS 2 packet ids it acknowledged with PUBREC over an earlier
     * connection (on any node), before any PUBLISH of this connection is read: a re-sent one is then recognised.
     */
    private void loadInboundQos2(
            ChannelHandlerContext ctx,
            ClientConnection connection,
            SessionApi.ConnectResponse response,
            boolean assignedId,
            boolean keepAliveChanged) {
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
                                .disconnect(new SessionApi.DisconnectRequest(
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
                    accept(ctx, connection, response, assignedId, keepAliveChanged);
                }));
    }

    private void accept(
            ChannelHandlerContext ctx,
            ClientConnection connection,
            SessionApi.ConnectResponse response,
            boolean assignedId,
            boolean keepAliveChanged) {
        if (!ctx.channel().isActive()) {
            // The client left while session-service was answering: end the session we just opened.
            context.sessions()
                    .disconnect(new SessionApi.DisconnectRequest(
                            connection.clientId(),
                            connection.epoch(),
                            context.properties().nodeId(),
                            connection.sessionExpirySeconds()));
            return;
        }
        // Compiled once here; every later PUBLISH and SUBSCRIBE is checked against it on the event loop.
        connection.permissions(TopicPermissions.of(response.acl()));
        ctx.channel().attr(ClientConnection.KEY).set(connection);
        ClientConnection displaced = context.registry().register(connection);
        if (displaced == connection) {
            ctx.channel().attr(ClientConnection.KEY).set(null);
            context.disconnector()
                    .close(
                            ctx.channel(),
                            null,
                            "a newer connection of client '" + connection.clientId() + "' was accepted meanwhile");
            return;
        }
        if (displaced != null) {
            displaced.channel().eventLoop().execute(() -> {
                displaced.markTakenOver();
                context.disconnector()
                        .disconnect(
                                displaced.channel(),
                                Disconnect.SESSION_TAKEN_OVER,
                                null,
                                "session taken over by a newer connection (epoch " + connection.epoch() + ")");
            });
        }
        // Metered from here (connection time) until the channel closes (ConnectionLifecycleHandler).
        connection.meter(
                context.registry().meters().connected(connection.namespace().tenant()));
        for (SessionApi.Subscription s : response.subscriptions()) {
            context.subscriptions()
                    .add(
                            connection,
                            s.filter(),
                            new SubscriptionOptions(
                                    s.qos(),
                                    s.noLocal(),
                                    s.retainAsPublished(),
                                    s.subscriptionId() == null ? 0 : s.subscriptionId()));
        }
        ctx.writeAndFlush(ConnAcks.accepted(
                        connection,
                        response.sessionPresent(),
                        assignedId,
                        keepAliveChanged,
                        context.properties().mqtt()))
                .addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
        // After CONNACK: what the session queue holds goes out first, in order, then live messages.
        context.queueReader().start(connection);
        context.metrics().connectAccepted();
        if (connectTimeout != null) {
            connectTimeout.cancel(false);
        }
        if (response.authenticationExpiresAt() != null) {
            ctx.pipeline()
                    .addAfter(
                            ctx.name(),
                            HandlerNames.AUTHENTICATION_EXPIRY,
                            new AuthenticationExpiryHandler(
                                    response.authenticationExpiresAt(), context.disconnector()));
        }
        // MQTT section 3.1.2.10: the keep-alive period runs from the CONNACK (KeepAliveWatch closes silent clients).
        connection.bytesRead(System.nanoTime());
        log.debug("Accepted {} epoch {} session present {}", connection, connection.epoch(), response.sessionPresent());
        connecting = false;
        ctx.pipeline().remove(this);
        while (!held.isEmpty()) {
            ctx.fireChannelRead(held.poll());
        }
        ReadGate.resume(ctx.channel(), ReadGate.Reason.CONNECTING);
    }

    private void refuse(ChannelHandlerContext ctx, MqttConnectReturnCode code, String metricCause, String cause) {
        context.metrics().connectRefused(metricCause);
        log.warn(
                "Refusing CONNECT of {} from {}: {}",
                connectingClientId == null ? "unidentified client" : "client '" + connectingClientId + "'",
                ctx.channel().remoteAddress(),
                cause);
        MqttMessageBuilders.ConnAckBuilder ack =
                MqttMessageBuilders.connAck().returnCode(code).sessionPresent(false);
        if ((code.byteValue() & 0xFF) >= 0x80) {
            // An MQTT 5 reason code, so an MQTT 5 client: tell it why.
            ack.properties(ProblemInformation.withReason(cause));
        }
        ctx.writeAndFlush(ack.build()).addListener(ChannelFutureListener.CLOSE);
    }

    /** Refuses with {@code refusal}'s code; logged and counted as for any refused CONNECT. */
    private void refuse(ChannelHandlerContext ctx, ConnAcks.Refusal refusal, String cause) {
        refuse(ctx, refusal.code(), refusal.metricCause(), cause);
    }

    private static long intProperty(MqttProperties props, int id, long absent) {
        MqttProperties.MqttProperty<?> p = props.getProperty(id);
        return p == null ? absent : Integer.toUnsignedLong((Integer) p.value());
    }

    private void releaseHeld() {
        while (!held.isEmpty()) {
            ReferenceCountUtil.release(held.poll());
        }
    }

    /** The collaborators a connect needs, bundled so the handler can be created per channel cheaply. */
    public record ConnectContext(
            io.tributary.transport.config.TransportProperties properties,
            SessionServiceClient sessions,
            ConnectionRegistry registry,
            LocalSubscriptions subscriptions,
            PublishProducer producer,
            Disconnector disconnector,
            TransportMetrics metrics,
            NodeRegistration liveness,
            SessionQueueReader queueReader,
            InboundQos2Store inboundQos2,
            boolean qos2ExactlyOnce) {

        public ConnectContext(
                io.tributary.transport.config.TransportProperties properties,
                SessionServiceClient sessions,
                ConnectionRegistry registry,
                LocalSubscriptions subscriptions,
                PublishProducer producer,
                Disconnector disconnector,
                TransportMetrics metrics,
                NodeRegistration liveness,
                SessionQueueReader queueReader,
                InboundQos2Store inboundQos2) {
            this(
                    properties,
                    sessions,
                    registry,
                    subscriptions,
                    producer,
                    disconnector,
                    metrics,
                    liveness,
                    queueReader,
                    inboundQos2,
                    false);
        }

        /** Without inbound QoS 2 ids across connections (tests without Redis). */
        public ConnectContext(
                io.tributary.transport.config.TransportProperties properties,
                SessionServiceClient sessions,
                ConnectionRegistry registry,
                LocalSubscriptions subscriptions,
                PublishProducer producer,
                Disconnector disconnector,
                TransportMetrics metrics,
                NodeRegistration liveness,
                SessionQueueReader queueReader) {
            this(
                    properties,
                    sessions,
                    registry,
                    subscriptions,
                    producer,
                    disconnector,
                    metrics,
                    liveness,
                    queueReader,
                    null);
        }
    }
}
