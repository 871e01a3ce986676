package io.tributary.perf.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PayloadTest {

    @Test
    void stampRoundTripsAndIsPaddedToTheSize() {
        ByteBuf buf = Unpooled.buffer();
        long now = Clock.nowMicros();
        Payload.write(buf, 66, 123_456, 789, true, now - 1_500);

        assertThat(buf.readableBytes()).isEqualTo(66);
        assertThat(buf.getByte(65)).isEqualTo((byte) 'x');
        Payload.Stamp stamp = Payload.read(buf, now);
        assertThat(stamp).isEqualTo(new Payload.Stamp(123_456, 789, true, now - 1_500));
        assertThat(buf.readerIndex()).isZero();
    }

    @Test
    void warmUpMessagesAreMarkedAndTheSmallestPayloadHoldsTheStamp() {
        ByteBuf buf = Unpooled.buffer();
        long now = Clock.nowMicros();
        Payload.write(buf, Payload.MIN_SIZE, Integer.MAX_VALUE, Integer.MAX_VALUE, false, now);

        assertThat(buf.readableBytes()).isEqualTo(16);
        assertThat(Payload.read(buf, now))
                .isEqualTo(new Payload.Stamp(Integer.MAX_VALUE, Integer.MAX_VALUE, false, now));
    }

    @Test
    void foreignPayloadsAreNotTakenForStamps() {
        long now = Clock.nowMicros();
        assertThat(Payload.read(Unpooled.wrappedBuffer("hello".getBytes(StandardCharsets.UTF_8)), now))
                .isNull();
        assertThat(Payload.read(
                        Unpooled.wrappedBuffer("a retained text payload".getBytes(StandardCharsets.UTF_8)), now))
                .isNull();
        ByteBuf old = Unpooled.buffer();
        Payload.write(old, 16, 1, 1, true, now - 2L * 86_400_000_000L);
        assertThat(Payload.read(old, now)).isNull();
    }

    @Test
    void refusesWhatCannotBeStamped() {
        assertThatThrownBy(() -> Payload.write(Unpooled.buffer(), 15, 1, 1, true, 0))
                .hasMessageContaining("payload size 15 < 16");
        assertThatThrownBy(() -> Payload.write(Unpooled.buffer(), 16, -1, 1, true, 0))
                .hasMessageContaining(">= 0");
    }
}
