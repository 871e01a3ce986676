package io.tributary.transport.connection;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.tributary.transport.metrics.TransportMetrics;
import org.junit.jupiter.api.Test;

class ByteCountingHandlerTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final TransportMetrics metrics = new TransportMetrics(registry);

    @Test
    void counts_bytes_read_and_written_over_all_connections_of_the_node() {
        EmbeddedChannel first = new EmbeddedChannel(new ByteCountingHandler(metrics));
        EmbeddedChannel second = new EmbeddedChannel(new ByteCountingHandler(metrics));

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
}
