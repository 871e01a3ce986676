package io.tributary.transport.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.transport.connection.OutboundMessage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReplaySeamTest {

    private static OutboundMessage m(String topic, String payload) {
        return new OutboundMessage(topic, payload.getBytes(StandardCharsets.UTF_8), 1, false, null);
    }

    private static List<String> drain(ReplaySeam seam) {
        List<String> out = new ArrayList<>();
        OutboundMessage next;
        while ((next = seam.peek()) != null) {
            out.add(new String(next.payload(), StandardCharsets.UTF_8));
            seam.take();
        }
        return out;
    }

    @Test
    void live_copies_below_the_end_offsets_are_dropped_and_the_rest_follow_the_history_in_order() {
        ReplaySeam seam = new ReplaySeam(new LinkedHashSet<>(Set.of("s/+")));
        // While the history is read, live deliveries of the filters are held; others pass.
        assertThat(seam.onLive("s/a", 0, 9)).isEqualTo(ReplaySeam.Verdict.HOLD);
        seam.hold(m("s/a", "live-9"), 0, 9);
        assertThat(seam.onLive("s/a", 0, 10)).isEqualTo(ReplaySeam.Verdict.HOLD);
        seam.hold(m("s/a", "live-10"), 0, 10);
        assertThat(seam.onLive("other/a", 0, 11)).isEqualTo(ReplaySeam.Verdict.PASS);
        assertThat(seam.peek()).as("nothing goes out before the history").isNull();

        int covered = seam.historyRead(List.of(m("s/a", "hist-8"), m("s/a", "hist-9")), Map.of(0, 10L, 1, 5L));
        assertThat(covered).isEqualTo(1);
        assertThat(seam.state()).isEqualTo(ReplaySeam.State.DELIVERING);
        // While it is sent: copies the history has are dropped, later ones queue behind it.
        assertThat(seam.onLive("s/b", 1, 4)).isEqualTo(ReplaySeam.Verdict.DROP);
        assertThat(seam.onLive("s/b", 1, 5)).isEqualTo(ReplaySeam.Verdict.HOLD);
        seam.hold(m("s/b", "live-b5"), 1, 5);

        assertThat(drain(seam)).containsExactly("hist-8", "hist-9", "live-10", "live-b5");
        assertThat(seam.state()).isEqualTo(ReplaySeam.State.DONE);
        // Afterwards live traffic passes, and a late copy from a lagging router is still dropped.
        assertThat(seam.onLive("s/a", 0, 11)).isEqualTo(ReplaySeam.Verdict.PASS);
        assertThat(seam.onLive("s/a", 0, 3)).isEqualTo(ReplaySeam.Verdict.DROP);
        // Without a source (an older router), nothing can be compared: it passes.
        assertThat(seam.onLive("s/a", -1, -1)).isEqualTo(ReplaySeam.Verdict.PASS);
    }

    @Test
    void a_finished_seam_is_forgotten_with_its_last_filter_but_a_running_one_is_kept() {
        ReplaySeam seam = new ReplaySeam(new LinkedHashSet<>(List.of("a", "b")));
        assertThat(seam.forget("a")).as("still reading").isFalse();
        seam.historyRead(List.of(), Map.of());
        assertThat(seam.peek()).isNull();
        assertThat(seam.forget("a")).isFalse();
        assertThat(seam.onLive("a", 0, 0)).isEqualTo(ReplaySeam.Verdict.PASS);
        assertThat(seam.forget("b")).isTrue();
    }
}
