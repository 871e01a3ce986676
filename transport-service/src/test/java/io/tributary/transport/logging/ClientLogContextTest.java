package io.tributary.transport.logging;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.mqtt.MqttConnectMessage;
import io.netty.handler.codec.mqtt.MqttMessageBuilders;
import io.netty.handler.codec.mqtt.MqttMessageBuilders.ConnectBuilder;
import io.netty.handler.codec.mqtt.MqttVersion;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

class ClientLogContextTest {

    /** What the next handler sees in the MDC while it processes each event. */
    private static final class MdcProbe extends ChannelInboundHandlerAdapter {
        final List<String> seen = new ArrayList<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            seen.add(MDC.get(ClientLogContext.CLIENT_ID));
        }
    }

    @Test
    void the_connect_packet_client_id_is_in_the_mdc_while_the_next_handlers_run_and_removed_after() {
        MdcProbe probe = new MdcProbe();
        EmbeddedChannel channel = new EmbeddedChannel(ClientLogContext.INSTANCE, probe);
        ConnectBuilder connect =
                MqttMessageBuilders.connect().clientId("sensor-17").protocolVersion(MqttVersion.MQTT_3_1_1);
        MqttConnectMessage message = connect.build();

        channel.writeInbound(message);
        channel.writeInbound("a packet of a channel whose client is not known");

        assertThat(probe.seen).containsExactly("sensor-17", null);
        assertThat(MDC.get(ClientLogContext.CLIENT_ID))
                .as("nothing left on the event loop thread")
                .isNull();
        channel.finishAndReleaseAll();
    }
}
