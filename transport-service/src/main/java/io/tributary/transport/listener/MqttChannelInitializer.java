package io.tributary.transport.listener;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.mqtt.MqttDecoder;
import io.netty.handler.codec.mqtt.MqttEncoder;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.tributary.transport.connect.ConnectContext;
import io.tributary.transport.connect.ConnectHandler;
import io.tributary.transport.connect.ConnectionLifecycleHandler;
import io.tributary.transport.connection.ByteCountingHandler;
import io.tributary.transport.connection.DisconnectHandler;
import io.tributary.transport.connection.HandlerNames;
import io.tributary.transport.connection.MalformedPacketHandler;
import io.tributary.transport.connection.PacketFrameCheck;
import io.tributary.transport.connection.PingHandler;
import io.tributary.transport.connection.TerminalHandler;
import io.tributary.transport.delivery.OutboundAckHandler;
import io.tributary.transport.publish.InboundPublishHandler;
import io.tributary.transport.subscribe.SubscribeHandler;
import io.tributary.transport.subscribe.SubscriptionBarrier;
import java.util.function.Supplier;

/**
 * The whole MQTT pipeline in one place (plain TCP; {@code listener/tls} and {@code listener/websocket} put their
 * handlers in front of the same chain). Bytes are decoded, the CONNECT handler admits the client (and removes
 * itself), then each packet type has its own handler (behind one dispatcher); the terminal handler sees only what
 * nobody consumed.
 */
public final class MqttChannelInitializer extends ChannelInitializer<SocketChannel> {

    /** Sharable handlers, created once per node. */
    public record Handlers(
            MalformedPacketHandler malformed,
            PacketDispatcher packets,
            ConnectionLifecycleHandler lifecycle,
            TerminalHandler terminal,
            ByteCountingHandler bytes) {

        public Handlers(
                MalformedPacketHandler malformed,
                InboundPublishHandler publish,
                SubscribeHandler subscribe,
                OutboundAckHandler outboundAcks,
                PingHandler ping,
                DisconnectHandler disconnect,
                ConnectionLifecycleHandler lifecycle,
                TerminalHandler terminal,
                ByteCountingHandler bytes) {
            this(
                    malformed,
                    new PacketDispatcher(publish, subscribe, outboundAcks, ping, disconnect),
                    lifecycle,
                    terminal,
                    bytes);
        }
    }

    private final int maxPacketSize;
    private final ConnectContext connectContext;
    private final Handlers handlers;
    private final PipelineEnd end;
    /** Makes the per-channel admission check (limits, IP block list) in front of CONNECT; null: none. */
    private final Supplier<ChannelHandler> admission;

    public MqttChannelInitializer(int maxPacketSize, ConnectContext connectContext, Handlers handlers) {
        this(maxPacketSize, connectContext, handlers, null);
    }

    public MqttChannelInitializer(
            int maxPacketSize, ConnectContext connectContext, Handlers handlers, Supplier<ChannelHandler> admission) {
        this.maxPacketSize = maxPacketSize;
        this.connectContext = connectContext;
        this.handlers = handlers;
        this.end = new PipelineEnd(handlers.lifecycle(), handlers.terminal());
        this.admission = admission;
    }

    /**
     * The same chain without the admission check, for the node's own in-process warm-up connections: they are not
     * outside clients and must not spend the node's connection budget or rates.
     */
    public MqttChannelInitializer withoutAdmission() {
        return new MqttChannelInitializer(maxPacketSize, connectContext, handlers, null);
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        addMqttHandlers(channel.pipeline());
    }

    /**
     * Appends the MQTT handler chain. The TLS and WebSocket listeners call this after their own handlers, so all
     * listeners share one chain; the first handler must receive the MQTT byte stream as ByteBufs.
     */
    public void addMqttHandlers(ChannelPipeline p) {
        // First of the chain: sees the MQTT bytes read and, last on the way out, the encoded bytes written.
        p.addLast(HandlerNames.BYTE_COUNTER, handlers.bytes());
        p.addLast(HandlerNames.FLUSH_CONSOLIDATION, new FlushConsolidationHandler(64, true));
        PacketFrameCheck.DecodedCounter decoded = new PacketFrameCheck.DecodedCounter();
        p.addLast(HandlerNames.FRAME_CHECK, new PacketFrameCheck(maxPacketSize, decoded));
        p.addLast(HandlerNames.DECODER, new MqttDecoder(maxPacketSize));
        p.addLast(HandlerNames.DECODED_COUNTER, decoded);
        // From here on, log lines about the client carry its id as the MDC field client_id.
        p.addLast(HandlerNames.CLIENT_LOG_CONTEXT, io.tributary.transport.logging.ClientLogContext.INSTANCE);
        p.addLast(HandlerNames.ENCODER, MqttEncoder.INSTANCE);
        if (admission != null) {
            p.addLast(HandlerNames.ADMISSION, admission.get());
        }
        p.addLast(HandlerNames.CONNECT, new ConnectHandler(connectContext));
        p.addLast(HandlerNames.MALFORMED, handlers.malformed());
        p.addLast(HandlerNames.SUBSCRIPTION_BARRIER, new SubscriptionBarrier());
        p.addLast(HandlerNames.PACKETS, handlers.packets());
        p.addLast(HandlerNames.END, end);
    }
}
