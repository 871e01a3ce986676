package io.tributary.transport.connection;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.mqtt.MqttFixedHeader;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttQoS;
import java.util.List;

/**
 * Sits in front of Netty's MQTT decoder and hands it one whole packet (fixed header + remaining length) at a time, to
 * catch two kinds of bad input the decoder lets through (both found by the fuzz test):
 * <ul>
 * <li>a field whose own length runs past the packet's remaining length (a topic, a property section): the decoder
 * trusts the inner length and keeps reading the following packets as part of this one, so the connection hangs or
 * later packets are misread. Each whole packet must produce one decoded message; when one did not, the packet was
 * malformed (0x81).</li>
 * <li>MQTT 5 only: a property included more than once where the specification makes that a Protocol Error (0x82);
 * the decoder keeps one copy and hides it.</li>
 * </ul>
 * Either becomes a failed message the pipeline already refuses, and the rest of the stream is discarded, as the
 * decoder does after a malformed packet. What it cannot frame (remaining length above the maximum packet size or not
 * a valid variable byte integer) is passed on untouched and the check leaves the pipeline: reporting that is the
 * decoder's job.
 */
public final class PacketFrameCheck extends ByteToMessageDecoder {

    /** The cause carried by the failed message; refused as Protocol Error (0x82). */
    public static final class DuplicatePropertyException extends DecoderException {
        public DuplicatePropertyException(String message) {
            super(message);
        }
    }

    /**
     * Counts the messages the decoder produced; placed right after it. Frames are handed on one per {@link #decode}
     * call, and ByteToMessageDecoder passes them down before its next call, so at each call every frame handed on
     * so far has been through the decoder.
     */
    public static final class DecodedCounter extends ChannelInboundHandlerAdapter {
        private long decoded;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            decoded++;
            ctx.fireChannelRead(msg);
        }
    }

    private final int maxPacketSize;
    private final DecodedCounter counter;
    private long framesHandedOn;
    private boolean mqtt5;
    private boolean firstPacket = true;
    private boolean failed;

    public PacketFrameCheck(int maxPacketSize, DecodedCounter counter) {
        this.maxPacketSize = maxPacketSize;
        this.counter = counter;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (in.isReadable() && !failed) {
            if (counter.decoded < framesHandedOn) {
                fail(in, out, 0, overrun());
                return;
            }
            int start = in.readerIndex();
            long remaining = 0;
            int i = start + 1;
            for (int shift = 0; ; shift += 7, i++) {
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
                mqtt5 = type == 1 && isMqtt5Connect(in, bodyStart, (int) remaining);
            }
            String duplicate = mqtt5 ? duplicateIn(in, in.getUnsignedByte(start), bodyStart, (int) remaining) : null;
            if (duplicate != null) {
                fail(
                        in,
                        out,
                        type,
                        new DuplicatePropertyException("property " + duplicate + " included more than once"));
                return;
            }
            // One frame per call, so that the counter can be checked against it at the next call.
            framesHandedOn++;
            out.add(in.readRetainedSlice(bodyStart - start + (int) remaining));
        } else if (failed) {
            in.skipBytes(in.readableBytes());
        }
    }

    /** The last frame of a read is checked here, so a malformed packet followed by silence is not missed. */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        if (!failed && counter.decoded < framesHandedOn) {
            failed = true;
            ctx.fireChannelRead(failure(0, overrun()));
        }
        super.channelReadComplete(ctx);
    }

    private void fail(ByteBuf in, List<Object> out, int type, DecoderException cause) {
        failed = true;
        in.skipBytes(in.readableBytes());
        out.add(failure(type, cause));
    }

    private static DecoderException overrun() {
        return new DecoderException("a field is longer than what is left of its packet");
    }

    private static MqttMessage failure(int type, DecoderException cause) {
        // Type 0 (unknown): reported as PUBLISH, only so the message has a header; handlers look at the cause.
        MqttMessageType messageType = type >= 1 && type <= 15 ? MqttMessageType.valueOf(type) : MqttMessageType.PUBLISH;
        return new MqttMessage(
                new MqttFixedHeader(messageType, false, MqttQoS.AT_MOST_ONCE, false, 0),
                null,
                null,
                DecoderResult.failure(cause));
    }

    /** Hands everything on and leaves the pipeline: nothing this check can frame. */
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
