package io.tributary.common.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** W3C Trace Context, section 3.2 (traceparent), as the publish record carries it. */
class TraceContextTest {

    private static final String VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void the_w3c_examples_and_its_invalid_values() {
        assertThat(TraceContext.isValidTraceparent(VALID)).isTrue();
        assertThat(TraceContext.isValidTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"))
                .isTrue();
        // "All bytes as zero ... is considered an invalid value" for trace-id and parent-id.
        assertThat(TraceContext.isValidTraceparent("00-00000000000000000000000000000000-00f067aa0ba902b7-01"))
                .isFalse();
        assertThat(TraceContext.isValidTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01"))
                .isFalse();
        // Version ff is invalid; upper case hex is not allowed; version 00 has exactly four fields.
        assertThat(TraceContext.isValidTraceparent("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
                .isFalse();
        assertThat(TraceContext.isValidTraceparent("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01"))
                .isFalse();
        assertThat(TraceContext.isValidTraceparent(VALID + "-extra")).isFalse();
        // A later version may append fields.
        assertThat(TraceContext.isValidTraceparent("01" + VALID.substring(2) + "-what-comes"))
                .isTrue();
        assertThat(TraceContext.isValidTraceparent("not a traceparent")).isFalse();
        assertThat(TraceContext.isValidTraceparent(null)).isFalse();
    }

    @Test
    void generated_values_are_valid_sampled_and_distinct() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 1_000; i++) {
            String generated = TraceContext.generate();
            assertThat(TraceContext.isValidTraceparent(generated)).as(generated).isTrue();
            assertThat(generated).startsWith("00-").endsWith("-01");
            seen.add(generated.substring(3, 35));
        }
        assertThat(seen).hasSize(1_000);
    }

    @Test
    void traceparent_and_tracestate_user_properties_become_headers_of_the_same_names() {
        PublishProperties props = new PublishProperties(
                null,
                null,
                null,
                null,
                null,
                List.of(
                        new PublishProperties.UserProperty("tracestate", "vendor=abc"),
                        new PublishProperties.UserProperty("traceparent", VALID)));
        ProducerRecord<byte[], byte[]> r =
                PublishRecordFormat.toRecord("t", new byte[0], 1, false, "c", 5, "n", props, 1L);
        assertThat(RecordHeaders.readString(r.headers(), RecordHeaders.TRACEPARENT))
                .isEqualTo(VALID);
        assertThat(RecordHeaders.readString(r.headers(), RecordHeaders.TRACESTATE))
                .isEqualTo("vendor=abc");
        // The user properties themselves stay, in order.
        assertThat(RecordHeaders.readString(r.headers(), "mqtt5.user.traceparent"))
                .isEqualTo(VALID);

        PublishProperties malformed = new PublishProperties(
                null,
                null,
                null,
                null,
                null,
                List.of(
                        new PublishProperties.UserProperty("traceparent", "garbage"),
                        new PublishProperties.UserProperty("tracestate", "vendor=abc")));
        ProducerRecord<byte[], byte[]> m =
                PublishRecordFormat.toRecord("t", new byte[0], 1, false, "c", 5, "n", malformed, 1L);
        assertThat(m.headers().lastHeader(RecordHeaders.TRACEPARENT)).isNull();
        assertThat(m.headers().lastHeader(RecordHeaders.TRACESTATE)).isNull();
        assertThat(RecordHeaders.readString(m.headers(), "mqtt5.user.traceparent"))
                .isEqualTo("garbage");
    }
}
