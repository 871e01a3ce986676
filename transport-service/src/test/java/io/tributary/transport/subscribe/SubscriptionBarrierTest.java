package io.tributary.transport.subscribe;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageBuilders;
import io.netty.handler.codec.mqtt.MqttPublishMessage;
import io.netty.handler.codec.mqtt.MqttQoS;
import io.netty.handler.codec.mqtt.MqttSubscribeMessage;
import io.netty.handler.codec.mqtt.MqttUnsubscribeMessage;
import io.tributary.transport.backpressure.ReadGate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SubscriptionBarrierTest {

    /** Records what passed the barrier; settles a SUBSCRIBE at once when told to (an all-refused SUBACK). */
    private static final class Downstream extends ChannelInboundHandlerAdapter {
        final List<String> passed = new ArrayList<>();
        boolean settleImmediately;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            passed.add(name(msg));
            if (settleImmediately && (msg instanceof MqttSubscribeMessage || msg instanceof MqttUnsubscribeMessage)) {
                SubscriptionBarrier.settled(ctx.channel());
            }
            io.netty.util.ReferenceCountUtil.release(msg);
        }
    }

    private final Downstream downstream = new Downstream();
    private final EmbeddedChannel channel = new EmbeddedChannel(new SubscriptionBarrier(), downstream);

    @Test
    void test_publishes_without_a_pending_subscribe_pass_straight_through() {
        channel.writeInbound(publish("a"), publish("b"));

        assertThat(downstream.passed).containsExactly("PUBLISH a", "PUBLISH b");
        assertThat(channel.config().isAutoRead()).isTrue();
    }

    @Test
    void test_publish_behind_a_subscribe_waits_until_it_is_settled_and_reading_pauses() {
        channel.writeInbound(subscribe("t"), publish("t"));

        assertThat(downstream.passed).containsExactly("SUBSCRIBE t");
        assertThat(ReadGate.paused(channel, ReadGate.Reason.SUBSCRIBING)).isTrue();
        assertThat(channel.config().isAutoRead()).isFalse();

        SubscriptionBarrier.settled(channel);

        assertThat(downstream.passed).containsExactly("SUBSCRIBE t", "PUBLISH t");
        assertThat(channel.config().isAutoRead()).isTrue();
    }

    @Test
    void test_pipelined_subscribes_pass_together_and_what_follows_waits_for_all_of_them() {
        channel.writeInbound(subscribe("t"), subscribe("t/#"), publish("t"), unsubscribe("t"), publish("t2"));

        assertThat(downstream.passed).containsExactly("SUBSCRIBE t", "SUBSCRIBE t/#");
        SubscriptionBarrier.settled(channel);
        assertThat(downstream.passed).containsExactly("SUBSCRIBE t", "SUBSCRIBE t/#");
        assertThat(channel.config().isAutoRead()).isFalse();
        SubscriptionBarrier.settled(channel);
        assertThat(downstream.passed).containsExactly("SUBSCRIBE t", "SUBSCRIBE t/#", "PUBLISH t", "UNSUBSCRIBE t");
        assertThat(channel.config().isAutoRead()).isFalse();
        SubscriptionBarrier.settled(channel);
        assertThat(downstream.passed).endsWith("UNSUBSCRIBE t", "PUBLISH t2");
        assertThat(channel.config().isAutoRead()).isTrue();
    }

    @Test
    void test_an_unsubscribe_behind_subscribes_waits_for_them_and_unsubscribes_pass_together_after() {
        channel.writeInbound(subscribe("a"), subscribe("b"), unsubscribe("a"), unsubscribe("b"), subscribe("c"));

        assertThat(downstream.passed).containsExactly("SUBSCRIBE a", "SUBSCRIBE b");
        SubscriptionBarrier.settled(channel);
        SubscriptionBarrier.settled(channel);
        assertThat(downstream.passed).containsExactly("SUBSCRIBE a", "SUBSCRIBE b", "UNSUBSCRIBE a", "UNSUBSCRIBE b");
        SubscriptionBarrier.settled(channel);
        SubscriptionBarrier.settled(channel);
        assertThat(downstream.passed).endsWith("UNSUBSCRIBE b", "SUBSCRIBE c");
        SubscriptionBarrier.settled(channel);
        assertThat(channel.config().isAutoRead()).isTrue();
    }

    @Test
    void test_at_most_max_pipelined_subscribes_are_under_way_at_once() {
        int asked = SubscriptionBarrier.MAX_PIPELINED + 5;
        for (int i = 0; i < asked; i++) {
            channel.writeInbound(subscribe("f/" + i));
        }

        assertThat(downstream.passed).hasSize(SubscriptionBarrier.MAX_PIPELINED);
        SubscriptionBarrier.settled(channel);
        assertThat(downstream.passed).hasSize(SubscriptionBarrier.MAX_PIPELINED + 1);
        for (int i = 0; i < asked; i++) {
            SubscriptionBarrier.settled(channel);
        }
        assertThat(downstream.passed).hasSize(asked).endsWith("SUBSCRIBE f/" + (asked - 1));
        assertThat(channel.config().isAutoRead()).isTrue();
    }

    @Test
    void test_packets_arriving_while_held_ones_wait_keep_their_order() {
        channel.writeInbound(subscribe("t"), publish("1"));
        channel.writeInbound(publish("2"));
        SubscriptionBarrier.settled(channel);
        channel.writeInbound(publish("3"));

        assertThat(downstream.passed).containsExactly("SUBSCRIBE t", "PUBLISH 1", "PUBLISH 2", "PUBLISH 3");
    }

    @Test
    void test_a_subscribe_settled_at_once_while_draining_lets_the_rest_through() {
        channel.writeInbound(subscribe("t"), publish("p"), subscribe("refused"), publish("t"));
        downstream.settleImmediately = true;

        SubscriptionBarrier.settled(channel);

        assertThat(downstream.passed).containsExactly("SUBSCRIBE t", "PUBLISH p", "SUBSCRIBE refused", "PUBLISH t");
        assertThat(channel.config().isAutoRead()).isTrue();
    }

    @Test
    void test_held_packets_are_released_when_the_connection_closes() {
        MqttPublishMessage held = publish("t");
        channel.writeInbound(subscribe("t"), held);

        channel.close();

        assertThat(held.refCnt()).isZero();
        assertThat(downstream.passed).containsExactly("SUBSCRIBE t");
    }

    private static MqttSubscribeMessage subscribe(String filter) {
        return MqttMessageBuilders.subscribe()
                .messageId(1)
                .addSubscription(MqttQoS.AT_LEAST_ONCE, filter)
                .build();
    }

    private static MqttUnsubscribeMessage unsubscribe(String filter) {
        return MqttMessageBuilders.unsubscribe()
                .messageId(2)
                .addTopicFilter(filter)
                .build();
    }

    private static MqttPublishMessage publish(String topic) {
        return MqttMessageBuilders.publish()
                .topicName(topic)
                .qos(MqttQoS.AT_LEAST_ONCE)
                .messageId(3)
                .payload(Unpooled.wrappedBuffer(new byte[] {1}))
                .build();
    }

    private static String name(Object msg) {
        if (msg instanceof MqttPublishMessage p) {
            return "PUBLISH " + p.variableHeader().topicName();
        }
        if (msg instanceof MqttSubscribeMessage s) {
            return "SUBSCRIBE " + s.payload().topicSubscriptions().get(0).topicFilter();
        }
        if (msg instanceof MqttUnsubscribeMessage u) {
            return "UNSUBSCRIBE " + u.payload().topics().get(0);
        }
        return String.valueOf(((MqttMessage) msg).fixedHeader().messageType());
    }
}
