package io.tributary.it.hostile;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Random;

/** Turns a valid packet into a hostile one. Every mutation is named, so the test can print what it sent. */
final class Mutator {

    enum Kind {
        BIT_FLIPS,
        TRUNCATE,
        REMAINING_LENGTH,
        HUGE_REMAINING_LENGTH,
        RANDOM_BYTES,
        GARBAGE_INSERTED,
        DUPLICATED_TAIL,
        INVALID_UTF8,
        RESERVED_FLAGS,
        PACKET_TYPE
    }

    record Mutation(Kind kind, byte[] bytes) {}

    private static final byte[][] BAD_UTF8 = {
        {(byte) 0xC3, 0x28},
        {(byte) 0xFF},
        {0},
        {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
        {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80}
    };

    private final Random random;

    Mutator(Random random) {
        this.random = random;
    }

    Mutation mutate(byte[] valid) {
        Kind kind = Kind.values()[random.nextInt(Kind.values().length)];
        byte[] p = valid.clone();
        byte[] out = switch (kind) {
            case BIT_FLIPS -> {
                for (int i = 1 + random.nextInt(4); i > 0; i--) {
                    int at = random.nextInt(p.length);
                    p[at] ^= (byte) (1 << random.nextInt(8));
                }
                yield p;
            }
            case TRUNCATE -> Arrays.copyOf(p, random.nextInt(p.length));
            case REMAINING_LENGTH -> withRemainingLength(p, random.nextInt(p.length + 64));
            case HUGE_REMAINING_LENGTH ->
                withRemainingLengthBytes(
                        p,
                        random.nextBoolean()
                                ? new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x7F}
                                : new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x01});
            case RANDOM_BYTES -> {
                byte[] r = new byte[1 + random.nextInt(64)];
                random.nextBytes(r);
                yield r;
            }
            case GARBAGE_INSERTED -> {
                byte[] g = new byte[1 + random.nextInt(12)];
                random.nextBytes(g);
                yield keepLength(insert(
                        p, headerLength(p) + random.nextInt(Math.max(1, p.length - headerLength(p))), g));
            }
            case DUPLICATED_TAIL -> {
                int from = headerLength(p) + random.nextInt(Math.max(1, p.length - headerLength(p)));
                yield keepLength(insert(p, from, Arrays.copyOfRange(p, from, Math.min(p.length, from + 8))));
            }
            case INVALID_UTF8 -> {
                int at = Math.min(p.length, headerLength(p) + 2 + random.nextInt(3));
                yield keepLength(insert(p, at, BAD_UTF8[random.nextInt(BAD_UTF8.length)]));
            }
            case RESERVED_FLAGS -> {
                p[0] = (byte) ((p[0] & 0xF0) | random.nextInt(16));
                yield p;
            }
            case PACKET_TYPE -> {
                p[0] = (byte) ((random.nextInt(16) << 4) | (p[0] & 0x0F));
                yield p;
            }
        };
        return new Mutation(kind, out);
    }

    /** Bytes of fixed header: type byte plus the remaining length's variable byte integer. */
    static int headerLength(byte[] p) {
        int i = 1;
        while (i < p.length && i < 5 && (p[i] & 0x80) != 0) {
            i++;
        }
        return Math.min(p.length, i + 1);
    }

    /** Rewrites the remaining length to the body's real length after a mutation changed the body. */
    private static byte[] keepLength(byte[] p) {
        int header = headerLength(p);
        return withRemainingLength(p, p.length - header);
    }

    private static byte[] withRemainingLength(byte[] p, int length) {
        ByteArrayOutputStream v = new ByteArrayOutputStream();
        Packets.varInt(v, Math.max(0, length));
        return withRemainingLengthBytes(p, v.toByteArray());
    }

    private static byte[] withRemainingLengthBytes(byte[] p, byte[] length) {
        int header = headerLength(p);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(p.length == 0 ? 0x30 : p[0]);
        out.writeBytes(length);
        out.write(p, header, p.length - header);
        return out.toByteArray();
    }

    private static byte[] insert(byte[] p, int at, byte[] what) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(p, 0, at);
        out.writeBytes(what);
        out.write(p, at, p.length - at);
        return out.toByteArray();
    }
}
