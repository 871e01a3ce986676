package io.tributary.devstack.tls;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.security.SecureRandom;

/** Pokes a TLS server with what a modern client library will not send. */
public final class TlsProbe {

    private TlsProbe() {}

    /**
     * Sends a hand-made TLS 1.1 ClientHello (no supported_versions extension, so 1.1 is the highest version
     * offered) and returns the first byte of the answer: 0x15 is a TLS alert, -1 a closed connection. Written by
     * hand because the JDK client refuses to offer TLS 1.1 at all, which would prove nothing about the server.
     */
    public static int answerToTls11Hello(int port) throws Exception {
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        body.write(new byte[] {0x03, 0x02}); // client_version TLS 1.1
        body.write(random);
        body.write(0); // session id
        byte[] suites = {(byte) 0xc0, 0x13, (byte) 0xc0, 0x14, 0x00, 0x2f, 0x00, 0x35, (byte) 0xc0, 0x09};
        body.write(0);
        body.write(suites.length);
        body.write(suites);
        body.write(new byte[] {0x01, 0x00}); // compression: null
        // extensions: supported_groups (secp256r1), ec_point_formats (uncompressed)
        byte[] ext = {0x00, 0x0a, 0x00, 0x04, 0x00, 0x02, 0x00, 0x17, 0x00, 0x0b, 0x00, 0x02, 0x01, 0x00};
        body.write(0);
        body.write(ext.length);
        body.write(ext);
        byte[] hello = body.toByteArray();
        java.io.ByteArrayOutputStream record = new java.io.ByteArrayOutputStream();
        record.write(new byte[] {0x16, 0x03, 0x01});
        record.write((hello.length + 4) >> 8);
        record.write((hello.length + 4) & 0xff);
        record.write(0x01); // ClientHello
        record.write(0);
        record.write(hello.length >> 8);
        record.write(hello.length & 0xff);
        record.write(hello);
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write(record.toByteArray());
            out.flush();
            InputStream in = socket.getInputStream();
            return in.read();
        }
    }
}
