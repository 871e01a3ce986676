package io.tributary.transport.subscribe;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.mqtt.MqttDecoder;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageBuilders;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttQoS;
import io.netty.handler.codec.mqtt.MqttReasonCodeAndPropertiesVariableHeader;
import io.netty.handler.codec.mqtt.MqttSubAckMessage;
import io.netty.handler.codec.mqtt.MqttSubscribeMessage;
import io.netty.handler.codec.mqtt.MqttSubscriptionOption;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.tributary.transport.connection.ClientCapabilities;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.delivery.OutboundDelivery;
import io.tributary.transport.delivery.SlowConsumerPolicy;
import io.tributary.transport.index.LocalSubscriptions;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.sessionclient.SessionServiceClient;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * SUBSCRIBE checks and negative SUBACKs on an EmbeddedChannel. Session-service is a real HTTP client aimed at a
 * port where nothing listens, so a forwarded subscription fails the way it does when session-service is down.
 */
class SubscribeHandlerTest {

    private final ExecutorService executor = Executors.newSingleThreadExecutor();
    private final LocalSubscriptions subscriptions = new LocalSubscriptions();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final TransportMetrics metrics = new TransportMetrics(registry);
    private final SubscribeHandler handler = new SubscribeHandler(
            "node-t",
            new SessionServiceClient(
                    URI.create("http://127.0.0.1:1"),
                    Duration.ofSeconds(2),
                    executor,
                    JsonMapper.builder().build(),
                    "test-token",
                    SessionServiceClient.Batching.DEFAULTS),
            subscriptions,
            new Disconnector(new TransportMetrics(new SimpleMeterRegistry())),
            new OutboundDelivery(
                    new TransportMetrics(new SimpleMeterRegistry()),
                    null,
                    new OutboundDelivery.Limits(10, 100, 1 << 20, SlowConsumerPolicy.DROP)),
            metrics);

    @AfterEach
    void tearDown() {
        executor.shutdownNow();
    }

    private EmbeddedChannel channel(boolean problemInformation) {
        EmbeddedChannel channel = new EmbeddedChannel(handler);
        channel.attr(ClientConnection.KEY)
                .set(new ClientConnection(
                        channel,
                        "c",
                        1,
                        MqttVersion.MQTT_5,
                        true,
                        60,
                        0,
                        new ClientCapabilities(10, 268_435_460L, 0, problemInformation),
                        10,
                        null));
        return channel;
    }

    private static MqttSubscribeMessage subscribe(String filter, Integer subscriptionId) {
        MqttProperties p = new MqttProperties();
        if (subscriptionId != null) {
            p.add(new MqttProperties.IntegerProperty(MqttProperties.SUBSCRIPTION_IDENTIFIER, subscriptionId));
        }
        return MqttMessageBuilders.subscribe()
                .messageId(3)
                .addSubscription(MqttQoS.AT_LEAST_ONCE, filter)
                .properties(p)
                .build();
    }

    private static MqttMessage awaitOutbound(EmbeddedChannel channel) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            channel.runPendingTasks();
            MqttMessage out = channel.readOutbound();
            if (out != null) {
                return out;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("nothing written");
    }

    @Test
    void subscription_identifier_zero_is_a_protocol_error() throws Exception {
        EmbeddedChannel channel = channel(true);
        channel.writeInbound(subscribe("a/b", 0));
        MqttMessage out = awaitOutbound(channel);
        assertThat(out.fixedHeader().messageType()).isEqualTo(MqttMessageType.DISCONNECT);
        assertThat(((MqttReasonCodeAndPropertiesVariableHeader) out.variableHeader()).reasonCode())
                .isEqualTo((byte) 0x82);
        assertThat(channel.isActive()).isFalse();
    }

    @Test
    void no_local_on_a_shared_subscription_is_a_protocol_error() throws Exception {
        EmbeddedChannel channel = channel(true);
        channel.writeInbound(MqttMessageBuilders.subscribe()
                .messageId(5)
                .addSubscription(
                        "$share/g/a/b",
                        new MqttSubscriptionOption(
                                MqttQoS.AT_LEAST_ONCE,
                                true,
                                false,
                                MqttSubscriptionOption.RetainedHandlingPolicy.SEND_AT_SUBSCRIBE))
                .build());
        MqttMessage out = awaitOutbound(channel);
        assertThat(out.fixedHeader().messageType()).isEqualTo(MqttMessageType.DISCONNECT);
        assertThat(((MqttReasonCodeAndPropertiesVariableHeader) out.variableHeader()).reasonCode())
                .isEqualTo((byte) 0x82);
        assertThat(channel.isActive()).isFalse();
    }

    @Test
    void invalid_share_names_get_0x8f_and_nothing_is_added_locally() throws Exception {
        for (String filter : new String[] {"$share//a/b", "$share/g+/a", "$share/g", "$share/g/a/#/b"}) {
            EmbeddedChannel channel = channel(true);
            channel.writeInbound(subscribe(filter, null));
            MqttSubAckMessage ack = (MqttSubAckMessage) awaitOutbound(channel);
            assertThat(ack.payload().reasonCodes()).as(filter).containsExactly(0x8F);
        }
        assertThat(subscriptions.size()).isZero();
    }

    @Test
    void invalid_filter_gets_0x8f_with_a_reason_string_unless_problems_are_unwanted() throws Exception {
        EmbeddedChannel wanting = channel(true);
        wanting.writeInbound(subscribe("a/#/b", 4));
        MqttSubAckMessage ack = (MqttSubAckMessage) awaitOutbound(wanting);
        assertThat(ack.payload().reasonCodes()).containsExactly(0x8F);
        assertThat((String) ack.idAndPropertiesVariableHeader()
                        .properties()
                        .getProperty(MqttProperties.REASON_STRING)
                        .value())
                .contains("a/#/b");

        EmbeddedChannel quiet = channel(false);
        quiet.writeInbound(subscribe("a/#/b", 4));
        ack = (MqttSubAckMessage) awaitOutbound(quiet);
        assertThat(ack.payload().reasonCodes()).containsExactly(0x8F);
        assertThat(ack.idAndPropertiesVariableHeader().properties().isEmpty()).isTrue();
    }

    @Test
    void unrecorded_subscription_is_refused_with_a_reason_and_not_added_locally() throws Exception {
        EmbeddedChannel channel = channel(true);
        channel.writeInbound(subscribe("ok/topic", 4));
        MqttSubAckMessage ack = (MqttSubAckMessage) awaitOutbound(channel);
        assertThat(ack.payload().reasonCodes()).containsExactly(0x80);
        assertThat((String) ack.idAndPropertiesVariableHeader()
                        .properties()
                        .getProperty(MqttProperties.REASON_STRING)
                        .value())
                .contains("could not be recorded");
        assertThat(subscriptions.size()).isZero();
    }

    /** Found by the fuzz test: Netty's decoder accepts a SUBSCRIBE or UNSUBSCRIBE whose payload holds no filter. */
    @Test
    void subscribe_or_unsubscribe_without_filters_is_a_protocol_error() {
        for (byte[] packet : new byte[][] {{(byte) 0x82, 2, 0, 1}, {(byte) 0xA2, 2, 0, 1}}) {
            EmbeddedChannel channel = new EmbeddedChannel(new MqttDecoder(), handler);
            channel.attr(ClientConnection.KEY)
                    .set(new ClientConnection(
                            channel,
                            "c",
                            1,
                            MqttVersion.MQTT_5,
                            true,
                            60,
                            0,
                            new ClientCapabilities(10, 268_435_460L, 0, true),
                            10,
                            null));
            channel.writeInbound(Unpooled.wrappedBuffer(packet));
            MqttMessage disconnect = channel.readOutbound();
            assertThat(disconnect.fixedHeader().messageType()).isEqualTo(MqttMessageType.DISCONNECT);
            assertThat(((MqttReasonCodeAndPropertiesVariableHeader) disconnect.variableHeader()).reasonCode())
                    .isEqualTo((byte) 0x82);
            assertThat(channel.isActive()).isFalse();
        }
    }
}
