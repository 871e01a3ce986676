package io.tributary.it.hostile;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * Valid MQTT 3.1.1 and 5.0 packets as bytes, chosen at random from a seeded {@link Random}: the raw material the
 * fuzzer mutates. Topics and filters stay under {@code prefix} so fuzz traffic never reaches other tests' clients.
 */
final class Packets {

    private final Random random;
    private final String prefix;

    Packets(Random random, String prefix) {
        this.random = random;
        this.prefix = prefix;
    }

    byte[] connect(boolean v5, String clientId, int keepAlive) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        string(body, "MQTT");
        body.write(v5 ? 5 : 4);
        boolean will = random.nextInt(4) == 0;
        int flags = 0x02 | (will ? 0x04 | (random.nextInt(3) << 3) : 0);
        body.write(flags);
        body.write(keepAlive >> 8);
        body.write(keepAlive);
        if (v5) {
            ByteArrayOutputStream p = new ByteArrayOutputStream();
            if (random.nextBoolean()) {
                p.write(0x11); // session expiry
                int32(p, random.nextInt(30));
            }
            if (random.nextBoolean()) {
                p.write(0x21); // receive maximum
                int16(p, 1 + random.nextInt(100));
            }
            if (random.nextBoolean()) {
                p.write(0x22); // topic alias maximum
                int16(p, random.nextInt(5));
            }
            if (random.nextBoolean()) {
                p.write(0x26); // user property
                string(p, "k");
                string(p, "v" + random.nextInt(10));
            }
            properties(body, p.toByteArray());
        }
        string(body, clientId);
        if (will) {
            if (v5) {
                properties(body, new byte[0]);
            }
            string(body, topic());
            string(body, "will");
        }
        return packet(0x10, body.toByteArray());
    }

    /**
     * A random packet a connected client may send: mostly PUBLISH, some of every other kind (DISCONNECT and AUTH
     * come from mutations and probes: they end the connection).
     */
    byte[] any(boolean v5) {
        int kind = random.nextInt(100);
        int id = 1 + random.nextInt(65535);
        if (kind < 45) {
            // Payload Format Indicator 1 only on UTF-8 payloads: the other case is a (tested) refusal, not noise.
            boolean utf8 = v5 && random.nextInt(4) == 0;
            byte[] payload = utf8 ? ("text " + random.nextLong()).getBytes(StandardCharsets.UTF_8) : payload();
            return publish(v5, random.nextInt(3), topic(), id, payload, utf8);
        } else if (kind < 50) {
            return subscribe(
                    v5,
                    id,
                    prefix + "/" + random.nextInt(20) + (random.nextBoolean() ? "/#" : "/+"),
                    random.nextInt(3));
        } else if (kind < 54) {
            return unsubscribe(v5, id, prefix + "/" + random.nextInt(20) + "/#");
        } else if (kind < 75) {
            return new byte[] {(byte) 0xC0, 0}; // PINGREQ
        } else if (kind < 85) {
            return ack(0x62, id, v5); // PUBREL
        } else if (kind < 90) {
            return ack(0x40, id, v5); // PUBACK
        } else if (kind < 95) {
            return ack(0x50, id, v5); // PUBREC
        }
        return ack(0x70, id, v5); // PUBCOMP
    }

    byte[] publish(boolean v5, int qos, String topic, int packetId, byte[] payload, boolean utf8Indicator) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        string(body, topic);
        if (qos > 0) {
            int16(body, packetId);
        }
        if (v5) {
            properties(body, utf8Indicator ? new byte[] {0x01, 1} : new byte[0]);
        }
        body.writeBytes(payload);
        return packet(0x30 | (qos << 1) | (random.nextInt(8) == 0 ? 1 : 0), body.toByteArray());
    }

    byte[] subscribe(boolean v5, int packetId, String filter, int qos) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        int16(body, packetId);
        if (v5) {
            properties(body, random.nextBoolean() ? new byte[] {0x0B, (byte) (1 + random.nextInt(100))} : new byte[0]);
        }
        string(body, filter);
        body.write(qos);
        return packet(0x82, body.toByteArray());
    }

    byte[] unsubscribe(boolean v5, int packetId, String filter) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        int16(body, packetId);
        if (v5) {
            properties(body, new byte[0]);
        }
        string(body, filter);
        return packet(0xA2, body.toByteArray());
    }

    static byte[] ack(int firstByte, int packetId, boolean v5) {
        return v5
                ? new byte[] {(byte) firstByte, 3, (byte) (packetId >> 8), (byte) packetId, 0}
                : new byte[] {(byte) firstByte, 2, (byte) (packetId >> 8), (byte) packetId};
    }

    String topic() {
        return prefix + "/" + random.nextInt(20) + "/" + random.nextInt(5);
    }

    byte[] payload() {
        byte[] payload = new byte[random.nextInt(200)];
        random.nextBytes(payload);
        return payload;
    }

    static byte[] packet(int firstByte, byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(firstByte);
        varInt(out, body.length);
        out.writeBytes(body);
        return out.toByteArray();
    }

    static void properties(ByteArrayOutputStream out, byte[] properties) {
        varInt(out, properties.length);
        out.writeBytes(properties);
    }

    static void varInt(ByteArrayOutputStream out, int value) {
        do {
            int digit = value % 128;
            value /= 128;
            out.write(value > 0 ? digit | 0x80 : digit);
        } while (value > 0);
    }

    static void string(ByteArrayOutputStream out, String s) {
        bytes(out, s.getBytes(StandardCharsets.UTF_8));
    }

    static void bytes(ByteArrayOutputStream out, byte[] b) {
        int16(out, b.length);
        out.writeBytes(b);
    }

    static void int16(ByteArrayOutputStream out, int v) {
        out.write(v >> 8);
        out.write(v);
    }

    static void int32(ByteArrayOutputStream out, int v) {
        out.write(v >> 24);
        out.write(v >> 16);
        out.write(v >> 8);
        out.write(v);
    }
}
