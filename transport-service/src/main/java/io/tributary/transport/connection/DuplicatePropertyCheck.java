package io.tributary.transport.connection;

import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.mqtt.MqttFixedHeader;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttQoS;

/**
 * MQTT 5 forbids most properties more than once per packet (a Protocol Error), but Netty's decoder keeps the last
 * copy and drops the evidence, so this check reads the property sections before it. It sits in front of the
 * decoder and hands it whole packets; a connection whose CONNECT is not MQTT 5 removes the check at once. A
 * duplicate becomes a failed message the pipeline already knows how to refuse, and the rest of the stream is
 * discarded, as the decoder does after a malformed packet. Anything it cannot frame or parse (too long, malformed
 * lengths, unknown property) is passed on untouched: reporting it is the decoder's job.
 */
public final class DuplicatePropertyCheck extends ByteToMessageDecoder {

    /** The cause carried by the failed message; refused as Protocol Error (0x82). */
    public static final class DuplicatePropertyException extends DecoderException {
        public DuplicatePropertyException(String message) {
            super(message);
        }
    }

    private final int maxPacketSize;
    private boolean firstPacket = true;
    private boolean failed;

    public DuplicatePropertyCheck(int maxPacketSize) {
        this.maxPacketSize = maxPacketSize;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (in.isReadable()) {
            if (failed) {
                in.skipBytes(in.readableBytes());
                return;
            }
            int start = in.readerIndex();
            long remaining = 0;
            int i = start + 1;
            for (int shift = 0;; shift += 7, i++) {
                if (i >= in.writerIndex()) {
                    return; // the length is not complete yet
                }
                if (shift > 21) {
                    passThrough(ctx, in, out);
                    return;
                }
                byte b = in.getByte(i);
                remaining |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    break;
                }
            }
            int bodyStart = i + 1;
            if (remaining > maxPacketSize) {
                passThrough(ctx, in, out);
                return;
            }
            if (in.writerIndex() - bodyStart < remaining) {
                return; // wait for the whole packet
            }
            int type = (in.getUnsignedByte(start) >> 4) & 0x0F;
            if (firstPacket) {
                firstPacket = false;
                if (type != 1 || !isMqtt5Connect(in, bodyStart, (int) remaining)) {
                    passThrough(ctx, in, out);
                    return;
                }
            }
            String duplicate = duplicateIn(in, in.getUnsignedByte(start), bodyStart, (int) remaining);
            if (duplicate != null) {
                failed = true;
                in.skipBytes(in.readableBytes());
                out.add(new MqttMessage(new MqttFixedHeader(MqttMessageType.valueOf(type), false,
                        MqttQoS.AT_MOST_ONCE, false, (int) remaining), null, null, DecoderResult.failure(
                        new DuplicatePropertyException("property " + duplicate + " included more than once"))));
                return;
            }
            out.add(in.readRetainedSlice(bodyStart - start + (int) remaining));
        }
    }

    /** Hands everything on and leaves the pipeline: not MQTT 5, or nothing this check can frame. */
    private void passThrough(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        out.add(in.readRetainedSlice(in.readableBytes()));
        ctx.pipeline().remove(this);
    }

    private static boolean isMqtt5Connect(ByteBuf in, int body, int length) {
        if (length < 7) {
            return false;
        }
        int nameLength = in.getUnsignedShort(body);
        return 2 + nameLength < length && in.getUnsignedByte(body + 2 + nameLength) == 5;
    }

    /** The name (hex id) of a property found twice in a property section of this packet, or null. */
    static String duplicateIn(ByteBuf in, int firstByte, int body, int length) {
        int end = body + length;
        int type = firstByte >> 4;
        int at;
        if (length < 2) {
            return null;
        }
        switch (type) {
            case 1 -> { // CONNECT: protocol name, level, flags, keep alive, properties [, will properties]
                at = body + 2 + in.getUnsignedShort(body);
                if (at + 4 > end) {
                    return null;
                }
                int flags = in.getUnsignedByte(at + 1);
                at += 4;
                String connect = scan(in, at, end);
                if (connect != null || (flags & 0x04) == 0) {
                    return connect;
                }
                int afterProperties = skipProperties(in, at, end);
                if (afterProperties < 0 || afterProperties + 2 > end) {
                    return null;
                }
                return scan(in, afterProperties + 2 + in.getUnsignedShort(afterProperties), end);
            }
            case 3 -> { // PUBLISH: topic [, packet id], properties
                at = body + 2 + in.getUnsignedShort(body) + (((firstByte >> 1) & 3) > 0 ? 2 : 0);
                return scan(in, at, end);
            }
            case 4, 5, 6, 7 -> { // acknowledgements: packet id, reason code, properties
                return length > 3 ? scan(in, body + 3, end) : null;
            }
            case 8, 10 -> { // SUBSCRIBE, UNSUBSCRIBE: packet id, properties
                return scan(in, body + 2, end);
            }
            case 14, 15 -> { // DISCONNECT, AUTH: reason code, properties
                return length > 1 ? scan(in, body + 1, end) : null;
            }
            default -> {
                return null;
            }
        }
    }

    private static int skipProperties(ByteBuf in, int at, int end) {
        int[] length = varInt(in, at, end);
        return length == null ? -1 : length[1] + length[0];
    }

    /** Walks one property section; returns the first id seen twice (user property and subscription id may repeat). */
    private static String scan(ByteBuf in, int at, int end) {
        int[] length = varInt(in, at, end);
        if (length == null) {
            return null;
        }
        int p = length[1];
        int stop = Math.min(end, p + length[0]);
        long seen = 0;
        while (p < stop) {
            int id = in.getUnsignedByte(p++);
            int size = valueSize(in, id, p, stop);
            if (size < 0) {
                return null; // unknown or truncated: the decoder reports it
            }
            if (id != 0x26 && id != 0x0B && id < 64) {
                if ((seen & (1L << id)) != 0) {
                    return String.format("0x%02X", id);
                }
                seen |= 1L << id;
            }
            p += size;
        }
        return null;
    }

    private static int valueSize(ByteBuf in, int id, int at, int end) {
        switch (id) {
            case 0x01, 0x17, 0x19, 0x24, 0x25, 0x28, 0x29, 0x2A:
                return 1;
            case 0x13, 0x21, 0x22, 0x23:
                return 2;
            case 0x02, 0x11, 0x18, 0x27:
                return 4;
            case 0x0B: {
                int[] v = varInt(in, at, end);
                return v == null ? -1 : v[1] - at;
            }
            case 0x03, 0x08, 0x12, 0x15, 0x1A, 0x1C, 0x1F, 0x09, 0x16:
                return at + 2 <= end ? 2 + in.getUnsignedShort(at) : -1;
            case 0x26: {
                if (at + 2 > end) {
                    return -1;
                }
                int second = at + 2 + in.getUnsignedShort(at);
                return second + 2 <= end ? second + 2 + in.getUnsignedShort(second) - at : -1;
            }
            default:
                return -1;
        }
    }

    /** {value, index after it}, or null when malformed or beyond {@code end}. */
    private static int[] varInt(ByteBuf in, int at, int end) {
        int value = 0;
        for (int shift = 0; shift <= 21; shift += 7) {
            if (at >= end) {
                return null;
            }
            byte b = in.getByte(at++);
            value |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return new int[] {value, at};
            }
        }
        return null;
    }
}
