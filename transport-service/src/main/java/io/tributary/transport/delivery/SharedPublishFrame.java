package io.tributary.transport.delivery;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.tributary.transport.connection.PublishWireSize;
import java.nio.charset.StandardCharsets;

/**
 * One QoS 0 PUBLISH encoded once, as MQTT 3.1 / 3.1.1 puts it on the wire, and written to every MQTT 3 subscriber
 * of a downlink record that gets it at QoS 0: nothing in such a packet differs between subscribers (no packet id, no
 * properties, no topic alias), so each one gets a {@link ByteBuf#retainedDuplicate() retained duplicate} of the same
 * direct buffer instead of its own allocation and payload copy.
 *
 * <p>Created and released on the downlink consumer thread; the duplicates handed to event loops each hold their own
 * reference, which the write (or the drop) releases (MQTT 3.1.1 section 3.3).
 */
final class SharedPublishFrame {

    private SharedPublishFrame() {}

    /** A direct buffer holding the whole packet; the caller owns it (one reference). */
    static ByteBuf encodeMqtt3Qos0(ByteBufAllocator allocator, String topic, byte[] payload, boolean retain) {
        byte[] topicBytes = topic.getBytes(StandardCharsets.UTF_8);
        int remaining = 2 + topicBytes.length + payload.length;
        ByteBuf frame = allocator.directBuffer(1 + PublishWireSize.varIntSize(remaining) + remaining);
        frame.writeByte(0x30 | (retain ? 0x01 : 0x00));
        writeVarInt(frame, remaining);
        frame.writeShort(topicBytes.length);
        frame.writeBytes(topicBytes);
        frame.writeBytes(payload);
        return frame;
    }

    private static void writeVarInt(ByteBuf out, int value) {
        int v = value;
        do {
            int digit = v % 128;
            v /= 128;
            out.writeByte(v > 0 ? digit | 0x80 : digit);
        } while (v > 0);
    }
}
