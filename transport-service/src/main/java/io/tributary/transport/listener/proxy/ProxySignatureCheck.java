package io.tributary.transport.listener.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.ProtocolDetectionState;
import io.netty.handler.codec.haproxy.HAProxyMessageDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * First of the pipeline: refuses a connection whose first bytes cannot start a PROXY header (an MQTT CONNECT, a TLS
 * ClientHello, an HTTP request straight from a client) as soon as they show it, rather than waiting for the header
 * timeout as {@link HAProxyMessageDecoder} would for a v1 line without its end. Once the signature of v1 or v2 is
 * there it leaves, handing the bytes read so far to the decoder behind it.
 */
final class ProxySignatureCheck extends ByteToMessageDecoder {

    /** The v2 signature (\r\n\r\n\0\r\nQUIT\n) and the v1 line's start. */
    private static final byte[] V2 = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

    private static final byte[] V1 = "PROXY ".getBytes(StandardCharsets.US_ASCII);

    private final ProxyRefusal refusal;

    ProxySignatureCheck(ProxyRefusal refusal) {
        this.refusal = refusal;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (!startsLike(in, V2) && !startsLike(in, V1)) {
            in.skipBytes(in.readableBytes());
            refusal.close(ctx.channel(), "no PROXY protocol header (the connection starts with other data)");
            return;
        }
        if (HAProxyMessageDecoder.detectProtocol(in).state() == ProtocolDetectionState.DETECTED) {
            ctx.pipeline().remove(this);
        }
        // else fewer bytes than a signature so far, all of them matching one: wait for more.
    }

    /** Whether the readable bytes so far (up to the signature's length) match the signature. */
    private static boolean startsLike(ByteBuf in, byte[] signature) {
        int n = Math.min(in.readableBytes(), signature.length);
        int at = in.readerIndex();
        for (int i = 0; i < n; i++) {
            if (in.getByte(at + i) != signature[i]) {
                return false;
            }
        }
        return true;
    }
}
