package io.tributary.it.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * A raw TCP peer for the cases no well-behaved MQTT client can produce: silence past the keep alive, malformed
 * packets, protocol violations. Everything a test asserts about normal behaviour uses real MQTT clients instead.
 */
public final class RawMqtt implements AutoCloseable {

    private final Socket socket;

    public RawMqtt(int port) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        socket.setTcpNoDelay(true);
    }

    /** CONNECT, MQTT 3.1.1, clean session. */
    public static byte[] connect311(String clientId, int keepAliveSeconds) {
        return connect311(clientId, keepAliveSeconds, true);
    }

    /** CONNECT, MQTT 3.1.1. */
    public static byte[] connect311(String clientId, int keepAliveSeconds, boolean cleanSession) {
        ByteArrayOutputStream variable = new ByteArrayOutputStream();
        writeString(variable, "MQTT");
        variable.write(4);
        variable.write(cleanSession ? 0x02 : 0x00);
        variable.write(keepAliveSeconds >> 8);
        variable.write(keepAliveSeconds & 0xFF);
        writeString(variable, clientId);
        return packet(0x10, variable.toByteArray());
    }

    /** PUBLISH QoS 0 of {@code topic} with the given payload (the topic is written as is, valid or not). */
    public static byte[] publishQos0(String topic, byte[] payload) {
        ByteArrayOutputStream variable = new ByteArrayOutputStream();
        writeString(variable, topic);
        variable.writeBytes(payload);
        return packet(0x30, variable.toByteArray());
    }

    /** SUBSCRIBE (MQTT 3.1.1) to one filter. */
    public static byte[] subscribe311(int packetId, String filter, int qos) {
        ByteArrayOutputStream variable = new ByteArrayOutputStream();
        variable.write(packetId >> 8);
        variable.write(packetId & 0xFF);
        writeString(variable, filter);
        variable.write(qos);
        return packet(0x82, variable.toByteArray());
    }

    /** UNSUBSCRIBE (MQTT 3.1.1) of one filter. */
    public static byte[] unsubscribe311(int packetId, String filter) {
        ByteArrayOutputStream variable = new ByteArrayOutputStream();
        variable.write(packetId >> 8);
        variable.write(packetId & 0xFF);
        writeString(variable, filter);
        return packet(0xA2, variable.toByteArray());
    }

    /** PUBLISH (MQTT 3.1.1) at {@code qos}; the packet id is written for QoS 1 and 2 only. */
    public static byte[] publish311(String topic, int qos, int packetId, byte[] payload) {
        ByteArrayOutputStream variable = new ByteArrayOutputStream();
        writeString(variable, topic);
        if (qos > 0) {
            variable.write(packetId >> 8);
            variable.write(packetId & 0xFF);
        }
        variable.writeBytes(payload);
        return packet(0x30 | (qos << 1), variable.toByteArray());
    }

    /** PUBACK (MQTT 3.1.1) of {@code packetId}. */
    public static byte[] puback(int packetId) {
        return packet(0x40, new byte[] {(byte) (packetId >> 8), (byte) packetId});
    }

    /** The packet id of a QoS 1/2 PUBLISH as {@link #readPacket} returns it (MQTT 3.1.1: no properties). */
    public static int publishPacketId(byte[] packet) {
        int at = 3 + (((packet[1] & 0xFF) << 8) | (packet[2] & 0xFF));
        return ((packet[at] & 0xFF) << 8) | (packet[at + 1] & 0xFF);
    }

    /** The payload of a QoS 1/2 PUBLISH as {@link #readPacket} returns it (MQTT 3.1.1). */
    public static byte[] publishPayload(byte[] packet) {
        int at = 3 + (((packet[1] & 0xFF) << 8) | (packet[2] & 0xFF)) + 2;
        return java.util.Arrays.copyOfRange(packet, at, packet.length);
    }

    public static byte[] packet(int firstByte, byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(firstByte);
        int len = body.length;
        do {
            int digit = len % 128;
            len /= 128;
            out.write(len > 0 ? digit | 0x80 : digit);
        } while (len > 0);
        out.writeBytes(body);
        return out.toByteArray();
    }

    static void writeString(ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.write(b.length >> 8);
        out.write(b.length & 0xFF);
        out.writeBytes(b);
    }

    public void send(byte[] bytes) throws IOException {
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
    }

    /** Reads one packet's first byte and body, or returns null if the server closed the connection. */
    public byte[] readPacket(int timeoutMs) throws IOException {
        socket.setSoTimeout(timeoutMs);
        InputStream in = socket.getInputStream();
        int first = in.read();
        if (first < 0) {
            return null;
        }
        int multiplier = 1;
        int length = 0;
        int digit;
        do {
            digit = in.read();
            if (digit < 0) {
                return null;
            }
            length += (digit & 0x7F) * multiplier;
            multiplier *= 128;
        } while ((digit & 0x80) != 0);
        byte[] body = in.readNBytes(length);
        byte[] packet = new byte[body.length + 1];
        packet[0] = (byte) first;
        System.arraycopy(body, 0, packet, 1, body.length);
        return packet;
    }

    /**
     * Waits until the server closes the connection, discarding anything it sends first. Returns the milliseconds it
     * took, or -1 if the connection was still open after {@code timeoutMs}.
     */
    public long awaitClosed(long timeoutMs) throws IOException {
        long start = System.nanoTime();
        long deadline = start + timeoutMs * 1_000_000;
        InputStream in = socket.getInputStream();
        while (System.nanoTime() < deadline) {
            socket.setSoTimeout((int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            try {
                if (in.read() < 0) {
                    return (System.nanoTime() - start) / 1_000_000;
                }
            } catch (SocketTimeoutException e) {
                return -1;
            } catch (IOException e) {
                // connection reset counts as closed
                return (System.nanoTime() - start) / 1_000_000;
            }
        }
        return -1;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
