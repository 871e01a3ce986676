package io.tributary.perf.measure;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.perf.scenario.Scenario;
import io.tributary.perf.scenario.ScenarioLoader;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeliveryAccountingTest {

    /** Publishers 0,1 on a/0, a/1 (fan-out to subscribers 0,1 on a/#); publisher 2 on b/2 to subscriber 2 only. */
    private static final Scenario SCENARIO = ScenarioLoader.parse("t", "t", """
            targets: [127.0.0.1:1883]
            subscribers:
              - {name: fan, count: 2, filter: "a/#"}
              - {name: one, count: 1, filter: "b/2"}
            publishers:
              - {name: pa, count: 2, topic: "a/{n}"}
              - {name: pb, count: 1, topic: "b/{i}"}
            """);

    private static Ledger.PublisherSent sent(int id, long... perSlot) {
        return new Ledger.PublisherSent(id, perSlot);
    }

    @Test
    void everythingDeliveredOnceIsNoLoss() {
        Ledger ledger = new Ledger(
                List.of(sent(0, 10), sent(1, 10), sent(2, 5)),
                new long[] {0, 0, 10, 0, 0, 1, 10, 0, 1, 0, 10, 0, 1, 1, 10, 0, 2, 2, 5, 0});

        DeliveryAccounting.Delivery d = DeliveryAccounting.compute(SCENARIO, "r", ledger, true, true);

        assertThat(d).isEqualTo(new DeliveryAccounting.Delivery(25, 45, 45, 0, 0, 0, 5, 0, true));
    }

    @Test
    void lossIsCountedPerStreamSoASurplusElsewhereHidesNothing() {
        // Subscriber 0 misses 3 of publisher 0's messages; subscriber 2 gets 2 it should not (from publisher 0);
        // subscriber 1 never hears from publisher 1 at all; duplicates are counted separately.
        Ledger ledger = new Ledger(
                List.of(sent(0, 10), sent(1, 10), sent(2, 5)),
                new long[] {0, 0, 7, 4, 0, 1, 10, 0, 1, 0, 10, 0, 2, 2, 5, 1, 0, 2, 2, 0});

        DeliveryAccounting.Delivery d = DeliveryAccounting.compute(SCENARIO, "r", ledger, true, true);

        assertThat(d.expected()).isEqualTo(45);
        assertThat(d.received()).isEqualTo(34);
        assertThat(d.lost()).isEqualTo(13);
        assertThat(d.duplicates()).isEqualTo(5);
        assertThat(d.unexpected()).isEqualTo(2);
        assertThat(d.streamsWithLoss()).isEqualTo(2);
        assertThat(d.lossRatio()).isEqualTo(13 / 45.0);
    }

    @Test
    void slotsOfOnePublisherAreMatchedOneByOne() {
        Scenario p2p = ScenarioLoader.parse("p2p", "p2p", """
                targets: [127.0.0.1:1883]
                subscribers:
                  - {name: s, count: 6, filter: "t-{run}-{n}"}
                publishers:
                  - {name: p, count: 2, topic: "t-{run}-{n*3+k}", topics-per-publisher: 3}
                """);
        // Publisher 1 sent 4, 3, 3 on t-3, t-4, t-5; subscriber 4 got 2 of its 3.
        Ledger ledger = new Ledger(
                List.of(sent(0, 0, 0, 0), sent(1, 4, 3, 3)), new long[] {1, 3, 4, 0, 1, 4, 2, 0, 1, 5, 3, 0});

        DeliveryAccounting.Delivery d = DeliveryAccounting.compute(p2p, "xyz", ledger, true, true);

        assertThat(d.sent()).isEqualTo(10);
        assertThat(d.expected()).isEqualTo(10);
        assertThat(d.lost()).isEqualTo(1);
        assertThat(d.unexpected()).isZero();
    }

    @Test
    void oneSidedLedgersKnowExpectedButNotLoss() {
        Ledger publishersOnly = new Ledger(List.of(sent(0, 10), sent(1, 10), sent(2, 5)), new long[0]);

        DeliveryAccounting.Delivery d = DeliveryAccounting.compute(SCENARIO, "r", publishersOnly, true, false);

        assertThat(d.expected()).isEqualTo(45);
        assertThat(d.complete()).isFalse();
        assertThat(d.lost()).isZero();
    }

    @Test
    void sequenceTrackerSeparatesNewFromRepeated() {
        SequenceTracker tracker = new SequenceTracker();
        assertThat(tracker.record(0)).isTrue();
        assertThat(tracker.record(5)).isTrue();
        assertThat(tracker.record(5)).isFalse();
        assertThat(tracker.record(0)).isFalse();
        assertThat(tracker.unique()).isEqualTo(2);
        assertThat(tracker.duplicates()).isEqualTo(2);
    }
}
