package io.tributary.common.metering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class MeteringRecordsTest {

    private static final Instant HOUR = Instant.parse("2026-11-26T13:00:00Z");

    @Test
    void a_delta_round_trips_as_json_with_an_iso_hour() {
        UsageDelta delta = new UsageDelta("acme", "node-1", 1700000000000L, 7, HOUR, 1, 2, 3, 4, 5);

        byte[] json = MeteringRecords.encode(delta);

        assertThat(new String(json, StandardCharsets.UTF_8)).contains("\"hour\":\"2026-11-26T13:00:00Z\"");
        assertThat(MeteringRecords.decodeDelta(json)).isEqualTo(delta);
    }

    @Test
    void totals_are_keyed_tenant_bar_hour_and_read_by_a_plain_json_reader() {
        UsageTotals totals = new UsageTotals("acme", HOUR, 1, 2, 3, 4, 5, 6);

        assertThat(MeteringRecords.totalsKey("acme", HOUR)).isEqualTo("acme|2026-11-26T13:00:00Z");
        String json = new String(MeteringRecords.encode(totals), StandardCharsets.UTF_8);
        assertThat(json)
                .contains("\"tenant\":\"acme\"", "\"hour\":\"2026-11-26T13:00:00Z\"", "\"connectionSeconds\":5");
        assertThat(MeteringRecords.decodeTotals(json.getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(totals);
    }

    @Test
    void a_delta_lies_in_a_whole_hour_and_counts_from_zero() {
        assertThatThrownBy(() -> new UsageDelta("acme", "n", 1, 1, HOUR.plusSeconds(1), 0, 0, 0, 0, 0))
                .hasMessageContaining("whole hour");
        assertThatThrownBy(() -> new UsageDelta("acme", "n", 1, 1, HOUR, -1, 0, 0, 0, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MeteringRecords.decodeDelta("{}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
