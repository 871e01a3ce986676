package io.tributary.transport.listener;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandler;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.tributary.transport.connection.DisconnectHandler;
import io.tributary.transport.connection.PingHandler;
import io.tributary.transport.delivery.OutboundAckHandler;
import io.tributary.transport.publish.InboundPublishHandler;
import io.tributary.transport.subscribe.SubscribeHandler;

/**
 * Hands each packet of an accepted connection to the one handler of its type. The handlers stay separate classes with
 * one job each, but share this one place in the pipeline: every pipeline entry costs a handler context per
 * connection (96 bytes with ZGC), and five of them were a sixth of a held connection's heap. Their packet types are
 * disjoint, so the order they used to sit in did not matter; what none of them takes goes on to the terminal handler.
 */
@ChannelHandler.Sharable
public final class PacketDispatcher extends ChannelInboundHandlerAdapter {

    private final InboundPublishHandler publish;
    private final SubscribeHandler subscribe;
    private final OutboundAckHandler outboundAcks;
    private final PingHandler ping;
    private final DisconnectHandler disconnect;

    public PacketDispatcher(
            InboundPublishHandler publish,
            SubscribeHandler subscribe,
            OutboundAckHandler outboundAcks,
            PingHandler ping,
            DisconnectHandler disconnect) {
        this.publish = publish;
        this.subscribe = subscribe;
        this.outboundAcks = outboundAcks;
        this.ping = ping;
        this.disconnect = disconnect;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        ChannelInboundHandler handler = msg instanceof MqttMessage m && m.fixedHeader() != null
                ? switch (m.fixedHeader().messageType()) {
                    case PUBLISH, PUBREL -> publish;
                    case SUBSCRIBE, UNSUBSCRIBE -> subscribe;
                    case PUBACK, PUBREC, PUBCOMP -> outboundAcks;
                    case PINGREQ -> ping;
                    case DISCONNECT, AUTH -> disconnect;
                    default -> null;
                }
                : null;
        if (handler == null) {
            ctx.fireChannelRead(msg);
        } else {
            handler.channelRead(ctx, msg);
        }
    }

    /** Only the outbound-ack handler watches writability (pausing reads, resuming deliveries); it passes it on. */
    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        outboundAcks.channelWritabilityChanged(ctx);
    }
}
