package io.tributary.transport.backpressure;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.embedded.EmbeddedChannel;
import io.tributary.transport.metrics.TransportMetrics;
import org.junit.jupiter.api.Test;

/** Reading stops above a limit of bytes waiting for Kafka and resumes at half of it, per connection and per node. */
class UplinkBudgetTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final TransportMetrics metrics = new TransportMetrics(meters);

    @Test
    void connection_pauses_above_its_limit_and_resumes_at_half() {
        UplinkBudget budget = new UplinkBudget(1_000, 1_000_000, metrics);
        EmbeddedChannel channel = new EmbeddedChannel();
        UplinkBudget.Account account = new UplinkBudget.Account();

        UplinkBudget.Release first = budget.acquire(channel, account, 600);
        assertThat(channel.config().isAutoRead()).as("600 of 1000").isTrue();
        UplinkBudget.Release second = budget.acquire(channel, account, 600);
        assertThat(channel.config().isAutoRead()).as("1200 of 1000").isFalse();

        first.run();
        channel.runPendingTasks();
        assertThat(channel.config().isAutoRead())
                .as("600 pending: above half the limit")
                .isFalse();
        second.run();
        channel.runPendingTasks();
        assertThat(channel.config().isAutoRead()).as("0 pending").isTrue();
        assertThat(account.pending()).isZero();
        assertThat(meters.get("tributary.reads.paused")
                        .tag("reason", "uplink_connection")
                        .counter()
                        .count())
                .isEqualTo(1.0);
    }

    @Test
    void node_limit_pauses_the_publishing_connection_and_resumes_it_when_the_node_drains() {
        UplinkBudget budget = new UplinkBudget(1_000_000, 1_000, metrics);
        EmbeddedChannel a = new EmbeddedChannel();
        EmbeddedChannel b = new EmbeddedChannel();
        UplinkBudget.Release fromA = budget.acquire(a, new UplinkBudget.Account(), 800);
        UplinkBudget.Release fromB = budget.acquire(b, new UplinkBudget.Account(), 800);
        assertThat(a.config().isAutoRead())
                .as("the node was at 800 of 1000 when a published")
                .isTrue();
        assertThat(b.config().isAutoRead())
                .as("b took the node to 1600 of 1000")
                .isFalse();
        assertThat(budget.nodePendingBytes()).isEqualTo(1_600);

        fromA.run();
        b.runPendingTasks();
        assertThat(b.config().isAutoRead())
                .as("800 pending on the node: above half")
                .isFalse();
        fromB.run();
        b.runPendingTasks();
        assertThat(b.config().isAutoRead()).isTrue();
        assertThat(budget.nodePendingBytes()).isZero();
    }

    @Test
    void reading_resumes_only_when_no_reason_is_left() {
        EmbeddedChannel channel = new EmbeddedChannel();
        ReadGate.pause(channel, ReadGate.Reason.UNWRITABLE);
        ReadGate.pause(channel, ReadGate.Reason.UPLINK_NODE);
        ReadGate.resume(channel, ReadGate.Reason.UPLINK_NODE);
        assertThat(channel.config().isAutoRead()).as("still not writable").isFalse();
        assertThat(ReadGate.resume(channel, ReadGate.Reason.UPLINK_CONNECTION))
                .as("was not pausing")
                .isFalse();
        assertThat(channel.config().isAutoRead()).isFalse();
        ReadGate.resume(channel, ReadGate.Reason.UNWRITABLE);
        assertThat(channel.config().isAutoRead()).isTrue();
    }
}
