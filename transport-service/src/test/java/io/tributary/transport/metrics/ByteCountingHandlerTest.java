package io.tributary.transport.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;

class ByteCountingHandlerTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final TransportMetrics metrics = new TransportMetrics(registry);

    @Test
    void counts_bytes_read_and_written_over_all_connections_of_the_node() {
        EmbeddedChannel first = new EmbeddedChannel(metrics.byteCountingHandler());
        EmbeddedChannel second = new EmbeddedChannel(metrics.byteCountingHandler());

        first.writeInbound(Unpooled.wrappedBuffer(new byte[] {1, 2, 3, 4, 5}));
        second.writeInbound(Unpooled.wrappedBuffer(new byte[] {1, 2}));
        first.writeOutbound(Unpooled.wrappedBuffer(new byte[] {9, 9, 9}));
        second.writeInbound("not bytes");

        assertThat(registry.get("tributary.mqtt.bytes.in").counter().count()).isEqualTo(7);
        assertThat(registry.get("tributary.mqtt.bytes.out").counter().count()).isEqualTo(3);
        // Messages pass through unchanged.
        ByteBuf read = first.readInbound();
        assertThat(read.readableBytes()).isEqualTo(5);
        read.release();
        ByteBuf other = second.readInbound();
        assertThat(other.readableBytes()).isEqualTo(2);
        other.release();
        assertThat((Object) second.readInbound()).isEqualTo("not bytes");
        first.finishAndReleaseAll();
        second.finishAndReleaseAll();
    }

    @Test
    void registers_main_drop_reasons_and_downlink_latency_up_front() {
        for (String reason : TransportMetrics.EAGER_DROP_REASONS) {
            assertThat(registry.get("tributary.deliveries.dropped").tag("reason", reason).counter().count()).isZero();
        }
        metrics.dropped("expired");
        assertThat(registry.get("tributary.deliveries.dropped").tag("reason", "expired").counter().count())
                .isEqualTo(1);

        metrics.downlinkConsumeLatency(25);
        metrics.downlinkConsumeLatency(-3);
        var latency = registry.get("tributary.kafka.consume.latency").tag("topic", "downlink").timer();
        assertThat(latency.count()).isEqualTo(2);
        assertThat(latency.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(25);
    }
}
