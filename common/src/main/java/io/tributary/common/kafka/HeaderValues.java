package io.tributary.common.kafka;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The one codec for the numbers and flags in record headers: writes them in a {@link HeaderFormat}, reads either form.
 *
 * <p>Text is ASCII decimal with an optional {@code -} ({@code "1"}, {@code "1732581234567"}), flags {@code true} /
 * {@code false}; binary is big-endian of a fixed width (1, 4 or 8 bytes), flags one byte. A value is read as text
 * when it is 1 to 20 characters of decimal, otherwise as binary when its length is the width of the field, otherwise
 * it is malformed and reads as absent ({@code null}): a consumer never fails on a header. The two forms cannot be
 * confused for the values Tributary writes: a binary QoS, protocol level, payload format, reason code, epoch or
 * received-at starts with a byte below {@code '0'}. The one overlap is a binary 4-byte message expiry of 808,464,432
 * seconds (about 25.6 years) or more whose four bytes are all ASCII digits; such a legacy record reads as text.
 */
public final class HeaderValues {

    /** A partition : offset pair, as in {@link RecordHeaders#SOURCE}. */
    public record Position(int partition, long offset) {}

    private static final int MAX_DECIMAL_LENGTH = 20;

    private HeaderValues() {}

    /** A number written as {@code binaryWidth} big-endian bytes (1, 4 or 8) in {@link HeaderFormat#BINARY}. */
    public static byte[] number(long value, int binaryWidth, HeaderFormat format) {
        if (format == HeaderFormat.TEXT) {
            return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
        }
        return switch (binaryWidth) {
            case 1 -> new byte[] {(byte) value};
            case 4 -> ByteBuffer.allocate(4).putInt((int) value).array();
            case 8 -> ByteBuffer.allocate(8).putLong(value).array();
            default -> throw new IllegalArgumentException("binary width " + binaryWidth);
        };
    }

    public static byte[] flag(boolean value, HeaderFormat format) {
        return format == HeaderFormat.TEXT
                ? (value ? "true" : "false").getBytes(StandardCharsets.US_ASCII)
                : new byte[] {(byte) (value ? 1 : 0)};
    }

    /**
     * A position in a topic: text {@code partition:offset} ({@code "3:1207"}), binary the partition in 4 bytes then
     * the offset in 8.
     */
    public static byte[] position(int partition, long offset, HeaderFormat format) {
        return format == HeaderFormat.TEXT
                ? (partition + ":" + offset).getBytes(StandardCharsets.US_ASCII)
                : ByteBuffer.allocate(12).putInt(partition).putLong(offset).array();
    }

    /**
     * The number in {@code value}, decimal text or {@code binaryWidth} big-endian bytes (the binary form is signed, as
     * written); {@code null} when absent or malformed.
     */
    public static Long readNumber(byte[] value, int binaryWidth) {
        if (value == null || value.length == 0) {
            return null;
        }
        if (isDecimal(value, 0, value.length)) {
            return parseDecimal(value, 0, value.length);
        }
        if (value.length != binaryWidth) {
            return null;
        }
        return switch (binaryWidth) {
            case 1 -> (long) value[0];
            case 4 -> (long) ByteBuffer.wrap(value).getInt();
            case 8 -> ByteBuffer.wrap(value).getLong();
            default -> null;
        };
    }

    /**
     * {@code true} / {@code false} (any case), or one byte: binary 0 or text {@code 0} false, anything else true (as
     * before text headers); {@code null} when absent or malformed.
     */
    public static Boolean readFlag(byte[] value) {
        if (value == null) {
            return null;
        }
        if (value.length == 1) {
            return value[0] != 0 && value[0] != '0';
        }
        String text = new String(value, StandardCharsets.UTF_8);
        if (text.equalsIgnoreCase("true")) {
            return Boolean.TRUE;
        }
        if (text.equalsIgnoreCase("false")) {
            return Boolean.FALSE;
        }
        return null;
    }

    /** A {@link #position} in either form, or {@code null} when absent, malformed or negative. */
    public static Position readPosition(byte[] value) {
        if (value == null) {
            return null;
        }
        int colon = -1;
        for (int i = 0; i < value.length; i++) {
            if (value[i] == ':') {
                colon = i;
                break;
            }
        }
        Position position = null;
        if (colon > 0 && isDecimal(value, 0, colon) && isDecimal(value, colon + 1, value.length)) {
            Long partition = parseDecimal(value, 0, colon);
            Long offset = parseDecimal(value, colon + 1, value.length);
            if (partition == null || offset == null || partition > Integer.MAX_VALUE) {
                return null;
            }
            position = new Position(partition.intValue(), offset);
        } else if (value.length == 12) {
            ByteBuffer in = ByteBuffer.wrap(value);
            position = new Position(in.getInt(), in.getLong());
        }
        return position == null || position.partition() < 0 || position.offset() < 0 ? null : position;
    }

    /**
     * The value of {@code value[from, to)}, already checked by {@link #isDecimal}, without a String in between (this
     * runs for several headers of every record delivered); {@code null} when it does not fit a long.
     */
    private static Long parseDecimal(byte[] value, int from, int to) {
        boolean negative = value[from] == '-';
        long result = 0;
        for (int i = negative ? from + 1 : from; i < to; i++) {
            int digit = value[i] - '0';
            // Accumulated negatively, so that Long.MIN_VALUE fits too.
            if (result < (Long.MIN_VALUE + digit) / 10) {
                return null;
            }
            result = result * 10 - digit;
        }
        if (!negative) {
            if (result == Long.MIN_VALUE) {
                return null;
            }
            result = -result;
        }
        return result;
    }

    /** {@code -?[0-9]+}, at most {@value #MAX_DECIMAL_LENGTH} characters, in {@code value[from, to)}. */
    private static boolean isDecimal(byte[] value, int from, int to) {
        int start = from < to && value[from] == '-' ? from + 1 : from;
        if (start >= to || to - from > MAX_DECIMAL_LENGTH) {
            return false;
        }
        for (int i = start; i < to; i++) {
            if (value[i] < '0' || value[i] > '9') {
                return false;
            }
        }
        return true;
    }
}
