package io.tributary.common.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Headers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Header numbers and flags: written as text or binary, and read back from both, malformed values reading as absent. */
class HeaderValuesTest {

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static Headers headers(String name, byte[] value) {
        Headers headers = new org.apache.kafka.common.header.internals.RecordHeaders();
        headers.add(name, value);
        return headers;
    }

    @AfterEach
    void restoreDefault() {
        RecordHeaders.useWriteFormat(HeaderFormat.TEXT);
    }

    @Test
    void text_is_decimal_and_true_false() {
        assertThat(HeaderValues.number(1, 1, HeaderFormat.TEXT)).isEqualTo(ascii("1"));
        assertThat(HeaderValues.number(1_732_581_234_567L, 8, HeaderFormat.TEXT))
                .isEqualTo(ascii("1732581234567"));
        assertThat(HeaderValues.number(-7, 8, HeaderFormat.TEXT)).isEqualTo(ascii("-7"));
        assertThat(HeaderValues.flag(true, HeaderFormat.TEXT)).isEqualTo(ascii("true"));
        assertThat(HeaderValues.flag(false, HeaderFormat.TEXT)).isEqualTo(ascii("false"));
        assertThat(HeaderValues.position(3, 1207, HeaderFormat.TEXT)).isEqualTo(ascii("3:1207"));
    }

    @Test
    void binary_is_the_earlier_fixed_width_big_endian_form() {
        assertThat(HeaderValues.number(2, 1, HeaderFormat.BINARY)).containsExactly(2);
        assertThat(HeaderValues.number(0x98, 4, HeaderFormat.BINARY)).containsExactly(0, 0, 0, 0x98);
        assertThat(HeaderValues.number(1234L, 8, HeaderFormat.BINARY))
                .isEqualTo(ByteBuffer.allocate(8).putLong(1234L).array());
        assertThat(HeaderValues.flag(true, HeaderFormat.BINARY)).containsExactly(1);
        assertThat(HeaderValues.flag(false, HeaderFormat.BINARY)).containsExactly(0);
        assertThat(HeaderValues.position(3, 1207, HeaderFormat.BINARY))
                .isEqualTo(ByteBuffer.allocate(12).putInt(3).putLong(1207).array());
    }

    @Test
    void numbers_read_back_from_both_forms() {
        for (HeaderFormat format : HeaderFormat.values()) {
            assertThat(HeaderValues.readNumber(HeaderValues.number(0, 1, format), 1))
                    .isEqualTo(0L);
            assertThat(HeaderValues.readNumber(HeaderValues.number(2, 1, format), 1))
                    .isEqualTo(2L);
            assertThat(HeaderValues.readNumber(HeaderValues.number(0x87, 4, format), 4))
                    .isEqualTo(0x87L);
            assertThat(HeaderValues.readNumber(HeaderValues.number(1_732_581_234_567L, 8, format), 8))
                    .isEqualTo(1_732_581_234_567L);
            assertThat(HeaderValues.readNumber(HeaderValues.number(5, 8, format), 8))
                    .isEqualTo(5L);
            assertThat(HeaderValues.readFlag(HeaderValues.flag(true, format))).isTrue();
            assertThat(HeaderValues.readFlag(HeaderValues.flag(false, format))).isFalse();
            assertThat(HeaderValues.readPosition(HeaderValues.position(3, 1207, format)))
                    .isEqualTo(new HeaderValues.Position(3, 1207));
        }
    }

    @Test
    void malformed_values_read_as_absent_and_never_throw() {
        for (String bad : new String[] {"", "-", "1.5", "12a", " 1", "0x10", "99999999999999999999", "--1"}) {
            assertThat(HeaderValues.readNumber(ascii(bad), 8)).as(bad).isNull();
        }
        assertThat(HeaderValues.readNumber(null, 4)).isNull();
        assertThat(HeaderValues.readNumber(new byte[] {0, 1}, 4))
                .as("wrong binary width")
                .isNull();
        assertThat(HeaderValues.readNumber(new byte[] {(byte) 0xff, 0, 0, 0, 0, 0, 0, 0, 0}, 8))
                .isNull();
        assertThat(HeaderValues.readFlag(ascii("yes"))).isNull();
        assertThat(HeaderValues.readFlag(new byte[0])).isNull();
        assertThat(HeaderValues.readFlag(null)).isNull();
        for (String bad : new String[] {"3", ":5", "3:", "3:x", "-1:5", "3:-5", "3:4:5", "99999999999:1"}) {
            assertThat(HeaderValues.readPosition(ascii(bad))).as(bad).isNull();
        }
        assertThat(HeaderValues.readPosition(new byte[11])).isNull();
        assertThat(HeaderValues.readPosition(
                        ByteBuffer.allocate(12).putInt(-1).putLong(5).array()))
                .isNull();
    }

    @Test
    void a_one_byte_text_zero_or_one_is_the_flag_it_says() {
        assertThat(HeaderValues.readFlag(ascii("0"))).isFalse();
        assertThat(HeaderValues.readFlag(ascii("1"))).isTrue();
        assertThat(HeaderValues.readFlag(ascii("TRUE"))).isTrue();
    }

    @Test
    void record_header_readers_take_either_form_and_default_on_malformed() {
        Headers h = new org.apache.kafka.common.header.internals.RecordHeaders();
        h.add(RecordHeaders.QOS, new byte[] {1});
        assertThat(RecordHeaders.readQos(h)).isEqualTo(1);
        assertThat(RecordHeaders.readQos(headers("mqtt.qos", ascii("2")))).isEqualTo(2);
        assertThat(RecordHeaders.readQos(headers("mqtt.qos", ascii("two")))).isZero();
        assertThat(RecordHeaders.readQos(headers("mqtt.qos", ascii("7")))).isEqualTo(2);
        assertThat(RecordHeaders.readQos(new org.apache.kafka.common.header.internals.RecordHeaders()))
                .isZero();

        assertThat(RecordHeaders.readFlag(headers("r", ascii("true")), "r")).isTrue();
        assertThat(RecordHeaders.readFlag(headers("r", new byte[] {1}), "r")).isTrue();
        assertThat(RecordHeaders.readFlag(headers("r", ascii("maybe")), "r")).isFalse();

        assertThat(RecordHeaders.readInt(headers("n", ascii("152")), "n")).isEqualTo(152);
        assertThat(RecordHeaders.readInt(headers("n", ascii("4000000000")), "n"))
                .as("out of int range")
                .isNull();
        assertThat(RecordHeaders.readLong(headers("n", new byte[] {1, 2, 3}), "n"))
                .isNull();
        assertThat(RecordHeaders.readInt8(headers("n", ascii("5")), "n")).isEqualTo(5);
        assertThat(RecordHeaders.readInt8(headers("n", new byte[] {5}), "n")).isEqualTo(5);
    }

    @Test
    void message_expiry_is_unsigned_in_both_forms() {
        byte[] binary = ByteBuffer.allocate(4).putInt((int) 4_000_000_000L).array();
        assertThat(RecordHeaders.readUnsignedInt(headers("e", binary), "e")).isEqualTo(4_000_000_000L);
        assertThat(RecordHeaders.readUnsignedInt(headers("e", ascii("4000000000")), "e"))
                .isEqualTo(4_000_000_000L);
        assertThat(RecordHeaders.readUnsignedInt(headers("e", ascii("4294967296")), "e"))
                .as("above 32 bits")
                .isNull();
        assertThat(RecordHeaders.readUnsignedInt(headers("e", ascii("-1")), "e"))
                .isNull();
        RecordHeaders.useWriteFormat(HeaderFormat.BINARY);
        assertThat(RecordHeaders.uint32(4_000_000_000L)).isEqualTo(binary);
        RecordHeaders.useWriteFormat(HeaderFormat.TEXT);
        assertThat(RecordHeaders.uint32(4_000_000_000L)).isEqualTo(ascii("4000000000"));
    }

    @Test
    void the_setting_is_text_or_binary_and_anything_else_fails_naming_it() {
        assertThat(RecordHeaders.useWriteFormat((String) null)).isEqualTo(HeaderFormat.TEXT);
        assertThat(RecordHeaders.useWriteFormat(" Binary ")).isEqualTo(HeaderFormat.BINARY);
        assertThat(RecordHeaders.writeFormat()).isEqualTo(HeaderFormat.BINARY);
        assertThat(RecordHeaders.useWriteFormat("")).isEqualTo(HeaderFormat.TEXT);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> RecordHeaders.useWriteFormat("json"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("TRIBUTARY_KAFKA_HEADER_FORMAT");
    }

    @Test
    void decimal_text_reads_to_the_ends_of_long_and_no_further() {
        assertThat(HeaderValues.readNumber(ascii("9223372036854775807"), 8)).isEqualTo(Long.MAX_VALUE);
        assertThat(HeaderValues.readNumber(ascii("-9223372036854775808"), 8)).isEqualTo(Long.MIN_VALUE);
        assertThat(HeaderValues.readNumber(ascii("9223372036854775808"), 8)).isNull();
        assertThat(HeaderValues.readNumber(ascii("-9223372036854775809"), 8)).isNull();
        assertThat(HeaderValues.readNumber(ascii("-0"), 8)).isZero();
        assertThat(HeaderValues.readPosition(ascii("2147483647:9223372036854775807")))
                .isEqualTo(new HeaderValues.Position(Integer.MAX_VALUE, Long.MAX_VALUE));
        assertThat(HeaderValues.readPosition(ascii("2147483648:1"))).isNull();
        assertThat(HeaderValues.readPosition(ascii("1:9223372036854775808"))).isNull();
    }
}
