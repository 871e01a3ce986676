package io.tributary.transport.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.mqtt.MqttProperties;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ReplayRequestTest {

    private static final long NOW = Instant.parse("2026-11-25T12:00:00Z").toEpochMilli();
    private static final ReplayProperties LIMITS =
            new ReplayProperties(true, Duration.ofHours(1), 100, 2, Duration.ofSeconds(30));

    private static MqttProperties users(String... pairs) {
        MqttProperties p = new MqttProperties();
        for (int i = 0; i < pairs.length; i += 2) {
            p.add(new MqttProperties.UserProperty(pairs[i], pairs[i + 1]));
        }
        return p;
    }

    private static ReplayRequest.Verdict verdict(String... pairs) {
        return ReplayRequest.of(users(pairs), LIMITS, NOW);
    }

    @Test
    void no_replay_property_is_no_request_and_other_user_properties_do_not_count() {
        assertThat(ReplayRequest.of(MqttProperties.NO_PROPERTIES, LIMITS, NOW)).isNull();
        assertThat(verdict("app", "x")).isNull();
    }

    @Test
    void replay_last_within_the_limit_is_granted() {
        ReplayRequest.Verdict v = verdict("app", "x", "replay-last", "100");
        assertThat(v.refused()).isFalse();
        assertThat(v.request()).isEqualTo(new ReplayRequest(null, 100));
    }

    @Test
    void replay_from_with_an_offset_within_the_age_limit_is_granted() {
        ReplayRequest.Verdict v = verdict("replay-from", "2026-11-25T12:30:00+01:00");
        assertThat(v.request()).isEqualTo(new ReplayRequest(Instant.parse("2026-11-25T11:30:00Z"), 0));
    }

    @Test
    void past_the_limits_is_quota_exceeded() {
        assertThat(verdict("replay-last", "101").code()).isEqualTo(0x97);
        ReplayRequest.Verdict old = verdict("replay-from", "2026-11-25T10:59:59Z");
        assertThat(old.refused()).isTrue();
        assertThat(old.code()).isEqualTo(0x97);
        assertThat(old.problem()).contains("further back than the limit of PT1H");
    }

    @Test
    void values_that_are_not_usable_are_implementation_specific_errors() {
        for (String[] bad : new String[][] {
            {"replay-last", "0"},
            {"replay-last", "ten"},
            {"replay-last", "-1"},
            {"replay-from", "yesterday"},
            {"replay-from", "2026-11-25T12:00:00"},
            {"replay-last", "1", "replay-from", "2026-11-25T11:30:00Z"},
            {"replay-last", "1", "replay-last", "2"}
        }) {
            ReplayRequest.Verdict v = verdict(bad);
            assertThat(v.refused()).as(String.join(" ", bad)).isTrue();
            assertThat(v.code()).as(String.join(" ", bad)).isEqualTo(0x83);
        }
    }

    @Test
    void a_node_with_replay_disabled_refuses_with_0x83() {
        ReplayProperties off = new ReplayProperties(false, Duration.ofHours(1), 100, 2, Duration.ofSeconds(30));
        ReplayRequest.Verdict v = ReplayRequest.of(users("replay-last", "1"), off, NOW);
        assertThat(v.code()).isEqualTo(0x83);
        assertThat(v.problem()).contains("disabled");
    }
}
