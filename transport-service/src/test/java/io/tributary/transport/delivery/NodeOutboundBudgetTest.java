package io.tributary.transport.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The node's held bytes are summed at most once a refresh interval, and the budget defaults to a quarter of the heap. */
class NodeOutboundBudgetTest {

    @Test
    void theHeldBytesAreSummedAtMostOnceAnIntervalAndCompareWithTheBudget() {
        AtomicLong clock = new AtomicLong(1_000);
        AtomicLong held = new AtomicLong(99);
        AtomicInteger sums = new AtomicInteger();
        NodeOutboundBudget budget = new NodeOutboundBudget(
                100,
                () -> {
                    sums.incrementAndGet();
                    return held.get();
                },
                clock::get);

        assertThat(budget.exceeded()).isFalse();
        held.set(100);
        assertThat(budget.exceeded()).as("not summed again within the interval").isFalse();
        assertThat(sums).hasValue(1);
        clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(NodeOutboundBudget.REFRESH_MILLIS));
        assertThat(budget.exceeded()).isTrue();
        assertThat(sums).hasValue(2);
    }

    @Test
    void zeroMeansAQuarterOfTheHeapAndTheBudgetMustBePositive() {
        assertThat(NodeOutboundBudget.bytesFor(0, 512L << 20)).isEqualTo(128L << 20);
        assertThat(NodeOutboundBudget.bytesFor(64L << 20, 512L << 20)).isEqualTo(64L << 20);
        assertThatThrownBy(() -> new NodeOutboundBudget(0, () -> 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be positive");
        assertThat(NodeOutboundBudget.UNLIMITED.exceeded()).isFalse();
    }
}
