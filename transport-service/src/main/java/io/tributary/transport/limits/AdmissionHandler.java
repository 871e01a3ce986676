package io.tributary.transport.limits;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.mqtt.MqttConnectMessage;
import io.netty.handler.codec.mqtt.MqttConnectReturnCode;
import io.netty.handler.codec.mqtt.MqttMessageBuilders;
import io.netty.util.ReferenceCountUtil;
import io.tributary.common.topic.TopicFilters;
import io.tributary.transport.connection.ClientAddress;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.connection.ProblemInformation;
import io.tributary.transport.metrics.TransportMetrics;
import java.net.InetAddress;

/**
 * In front of the CONNECT handler: asks {@link ConnectAdmission} about the connection as soon as it opens (so the
 * rates count every TCP connection, also those that never send CONNECT), and answers a refused one at its CONNECT
 * with the matching CONNACK (MQTT 5: 0x8A banned, 0x97 quota exceeded, 0x9F connection rate exceeded; MQTT 3.x:
 * return code 5 or 3), before anything is asked of session-service. It also refuses a client identifier or user name
 * longer than allowed ({@link IdentityLengths}: MQTT 5 0x85 / 0x86, 3.x return code 2 / 4) and a will topic with
 * more levels than allowed (MQTT 5 0x90 topic name invalid; 3.x has no code for it, the connection is closed). An
 * admitted
 * connection's first packet goes on and the handler leaves the pipeline; a refused one's later packets are dropped
 * while the CONNACK goes out and the connection closes. Refusals count in {@code tributary_connects_total} too.
 */
public final class AdmissionHandler extends ChannelInboundHandlerAdapter {

    private final ConnectAdmission admission;
    private final LimitRefusals refusals;
    private final Disconnector disconnector;
    private final TransportMetrics metrics;
    private boolean counted;
    private ConnectAdmission.Refusal refusal;
    private boolean answered;

    public AdmissionHandler(
            ConnectAdmission admission, LimitRefusals refusals, Disconnector disconnector, TransportMetrics metrics) {
        this.metrics = metrics;
        this.admission = admission;
        this.refusals = refusals;
        this.disconnector = disconnector;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        // Added after the WebSocket upgrade, the channel is active already and channelActive never comes.
        if (ctx.channel().isActive()) {
            admit(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        admit(ctx);
        super.channelActive(ctx);
    }

    private void admit(ChannelHandlerContext ctx) {
        if (counted) {
            return;
        }
        counted = true;
        refusal = admission.opened(remoteIp(ctx));
        // Through a local, so that the listener does not keep this handler alive after it left the pipeline.
        ConnectAdmission counter = admission;
        ctx.channel().closeFuture().addListener(f -> counter.closed());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (answered) {
            // Pipelined behind a refused CONNECT: the connection is closing.
            ReferenceCountUtil.release(msg);
            return;
        }
        if (!(msg instanceof MqttConnectMessage connect)
                || connect.decoderResult().isFailure()) {
            // Not a CONNECT: the CONNECT handler closes the connection and says why.
            ctx.pipeline().remove(this);
            ctx.fireChannelRead(msg);
            return;
        }
        boolean v5 = connect.variableHeader().version() == 5;
        String clientId = IdentityLengths.forLog(connect.payload().clientIdentifier());
        if (refusal != null) {
            ReferenceCountUtil.release(msg);
            refuse(ctx, clientId, refusal.reason, v5 ? refusal.v5Code : refusal.v3Code, refusal.cause);
            return;
        }
        IdentityLengths.Problem tooLong = IdentityLengths.problem(connect.payload(), admission.limits());
        if (tooLong != null) {
            ReferenceCountUtil.release(msg);
            boolean id = tooLong.what() == IdentityLengths.Excess.CLIENT_ID;
            MqttConnectReturnCode code;
            if (id) {
                code = v5
                        ? MqttConnectReturnCode.CONNECTION_REFUSED_CLIENT_IDENTIFIER_NOT_VALID
                        : MqttConnectReturnCode.CONNECTION_REFUSED_IDENTIFIER_REJECTED;
            } else {
                code = v5
                        ? MqttConnectReturnCode.CONNECTION_REFUSED_BAD_USERNAME_OR_PASSWORD
                        : MqttConnectReturnCode.CONNECTION_REFUSED_BAD_USER_NAME_OR_PASSWORD;
            }
            refuse(
                    ctx,
                    clientId,
                    id ? LimitRefusals.CLIENT_ID_LENGTH : LimitRefusals.USERNAME_LENGTH,
                    code,
                    tooLong.describe());
            return;
        }
        int maxLevels = admission.limits().maxTopicLevels();
        if (connect.variableHeader().isWillFlag()
                && maxLevels > 0
                && connect.payload().willTopic() != null
                && TopicFilters.levels(connect.payload().willTopic()) > maxLevels) {
            ReferenceCountUtil.release(msg);
            String cause = "will topic has more than " + maxLevels + " levels";
            if (v5) {
                refuse(
                        ctx,
                        clientId,
                        LimitRefusals.TOPIC_LEVELS,
                        MqttConnectReturnCode.CONNECTION_REFUSED_TOPIC_NAME_INVALID,
                        cause);
            } else {
                answered = true;
                count(LimitRefusals.TOPIC_LEVELS);
                refusals.refused(
                        LimitRefusals.TOPIC_LEVELS,
                        "Closing client '" + clientId + "' from " + ClientAddress.of(ctx.channel()),
                        cause);
                disconnector.close(ctx.channel(), null, "refused will topic of client '" + clientId + "'");
            }
            return;
        }
        ctx.pipeline().remove(this);
        ctx.fireChannelRead(msg);
    }

    private void count(String reason) {
        if (metrics != null) {
            metrics.connectRefused(reason);
        }
    }

    private void refuse(
            ChannelHandlerContext ctx, String clientId, String reason, MqttConnectReturnCode code, String cause) {
        answered = true;
        count(reason);
        refusals.refused(
                reason, "Refusing CONNECT of client '" + clientId + "' from " + ClientAddress.of(ctx.channel()), cause);
        MqttMessageBuilders.ConnAckBuilder ack =
                MqttMessageBuilders.connAck().returnCode(code).sessionPresent(false);
        if ((code.byteValue() & 0xFF) >= 0x80) {
            ack.properties(ProblemInformation.withReason(cause));
        }
        ctx.writeAndFlush(ack.build()).addListener(ChannelFutureListener.CLOSE);
    }

    private static InetAddress remoteIp(ChannelHandlerContext ctx) {
        return ClientAddress.ip(ctx.channel());
    }
}
