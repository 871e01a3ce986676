package io.tributary.transport.listener.proxy;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;

/** PROXY protocol headers written byte by byte from the specification, independent of Netty's encoder. */
public final class ProxyHeaders {

    public static final byte[] V2_SIGNATURE = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

    private ProxyHeaders() {}

    /** Version 2, command PROXY over TCP: IPv4 or IPv6 by the source literal. */
    public static byte[] v2(String source, int sourcePort, String destination, int destinationPort) {
        try {
            byte[] src = InetAddress.getByName(source).getAddress();
            byte[] dst = InetAddress.getByName(destination).getAddress();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(V2_SIGNATURE);
            out.write(0x21); // version 2, PROXY
            out.write(src.length == 4 ? 0x11 : 0x21); // AF_INET / AF_INET6, STREAM
            int length = 2 * src.length + 4;
            out.write(length >> 8);
            out.write(length & 0xFF);
            out.writeBytes(src);
            out.writeBytes(dst);
            out.write(sourcePort >> 8);
            out.write(sourcePort & 0xFF);
            out.write(destinationPort >> 8);
            out.write(destinationPort & 0xFF);
            return out.toByteArray();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** Version 2, command LOCAL (a load balancer's health check), no addresses. */
    public static byte[] v2Local() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(V2_SIGNATURE);
        out.write(0x20);
        out.write(0x00);
        out.write(0);
        out.write(0);
        return out.toByteArray();
    }

    /** Version 1, the text line. */
    public static byte[] v1(String source, int sourcePort, String destination, int destinationPort) {
        String family = source.contains(":") ? "TCP6" : "TCP4";
        return ("PROXY " + family + " " + source + " " + destination + " " + sourcePort + " " + destinationPort
                        + "\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    public static byte[] concat(byte[] a, byte[] b) {
        byte[] both = new byte[a.length + b.length];
        System.arraycopy(a, 0, both, 0, a.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }
}
