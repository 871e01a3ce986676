package io.tributary.transport.connection;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageBuilders;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttReasonCodes;
import io.tributary.transport.metrics.TransportMetrics;
import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one way a connection is ended by the server: send MQTT 5 DISCONNECT with a reason code where the client
 * speaks MQTT 5 and has been accepted, log one line naming the client and the cause, close. Nothing else closes
 * client channels, so every server-side close is explained exactly once.
 */
public final class Disconnector {

    private static final Logger log = LoggerFactory.getLogger(Disconnector.class);

    private static final long DISCONNECT_FLUSH_GRACE_MS = 2_000;

    private final TransportMetrics metrics;

    public Disconnector(TransportMetrics metrics) {
        this.metrics = metrics;
    }

    /**
     * @param reason      MQTT 5 DISCONNECT reason; sent only to accepted MQTT 5 clients
     * @param metricCause short stable label for the protocol-error metric, or {@code null} for ordinary closes
     * @param cause       human-readable cause for the log line and the MQTT 5 reason string
     */
    public void disconnect(Channel channel, MqttReasonCodes.Disconnect reason, String metricCause, String cause) {
        disconnect(channel, reason.byteValue(), metricCause, cause, null);
    }

    /**
     * For a reason code that arrives as a number (an administrator's request on the downlink topic).
     *
     * @param reasonCode MQTT 5 DISCONNECT reason code; sent only to accepted MQTT 5 clients
     * @param metricCause short stable label for the protocol-error metric, or {@code null} for ordinary closes
     * @param cause      human-readable cause for the log line and the MQTT 5 reason string
     */
    public void disconnect(Channel channel, byte reasonCode, String metricCause, String cause) {
        disconnect(channel, reasonCode, metricCause, cause, null);
    }

    /**
     * As {@link #disconnect(Channel, byte, String, String)}, with a Server Reference property on the DISCONNECT
     * (reason 0x9C / 0x9D: use another server / server moved) when {@code serverReference} is not blank.
     */
    public void disconnect(Channel channel, byte reasonCode, String metricCause, String cause, String serverReference) {
        if (!channel.isActive()) {
            return;
        }
        ClientConnection connection = ClientConnection.of(channel);
        String who = connection != null ? "client '" + connection.clientId() + "'" : "unconnected client";
        SocketAddress address = ClientAddress.of(channel);
        if (metricCause != null) {
            metrics.protocolError(metricCause);
            log.warn("Closing {} from {}: {}", who, address, cause);
        } else {
            log.info("Closing {} from {}: {}", who, address, cause);
        }
        if (connection != null && connection.isMqtt5() && channel.isWritable()) {
            // A reason string is allowed on DISCONNECT whatever Request Problem Information says.
            MqttProperties properties = ProblemInformation.withReason(cause);
            if (serverReference != null && !serverReference.isBlank()) {
                properties.add(new MqttProperties.StringProperty(MqttProperties.SERVER_REFERENCE, serverReference));
            }
            MqttMessage disconnect = MqttMessageBuilders.disconnect()
                    .reasonCode(reasonCode)
                    .properties(properties)
                    .build();
            channel.writeAndFlush(disconnect).addListener(ChannelFutureListener.CLOSE);
            // The flush completes only once the client reads what was queued before it; one that stopped reading
            // is closed anyway, or the connection and its buffers would outlive the decision to end it.
            channel.eventLoop()
                    .schedule(
                            () -> {
                                channel.close();
                            },
                            DISCONNECT_FLUSH_GRACE_MS,
                            TimeUnit.MILLISECONDS);
        } else {
            // Also when the socket is not writable: a DISCONNECT queued behind data the client does not read would
            // never be flushed, and its close-on-flush listener would keep the connection (and its memory) forever.
            channel.close();
        }
    }

    /** Closes without a DISCONNECT packet (before CONNACK, or after a CONNACK refusal was written). */
    public void close(Channel channel, String metricCause, String cause) {
        if (!channel.isActive()) {
            return;
        }
        if (metricCause != null) {
            metrics.protocolError(metricCause);
        }
        log.warn("Closing connection from {}: {}", ClientAddress.of(channel), cause);
        channel.close();
    }
}
