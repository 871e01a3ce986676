package io.tributary.transport.limits.tenant;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The lease of a tenant's quota on one node: batches, refills before the slice runs out, credit while a refill is on
 * its way, a used-up window, unused tokens dropped at the window's end, and failing open (bounded) without Redis.
 * The counter's answers are completed by hand, so each step is seen between request and answer.
 */
class QuotaLeaseTest {

    private static final long MS = 1_000_000L;

    private record Call(long limit, long want, long owed, CompletableFuture<QuotaLease.Grant> answer) {}

    private final AtomicLong now = new AtomicLong(5_000 * MS);
    private final List<Call> calls = new ArrayList<>();
    private final AtomicInteger failures = new AtomicInteger();
    private final AtomicInteger answers = new AtomicInteger();
    private final QuotaLease.Health health = new QuotaLease.Health() {
        @Override
        public void failed(Throwable error) {
            failures.incrementAndGet();
        }

        @Override
        public void answered() {
            answers.incrementAndGet();
        }
    };

    private QuotaLease lease(long limit) {
        return new QuotaLease(
                limit,
                (l, want, owed) -> {
                    Call call = new Call(l, want, owed, new CompletableFuture<>());
                    calls.add(call);
                    return call.answer();
                },
                health,
                now::get);
    }

    private Call last() {
        return calls.get(calls.size() - 1);
    }

    private static int taken(QuotaLease lease, int attempts, long n) {
        int taken = 0;
        for (int i = 0; i < attempts; i++) {
            if (lease.tryTake(n)) {
                taken++;
            }
        }
        return taken;
    }

    @Test
    void leases_a_tenth_of_the_quota_and_refills_before_the_slice_runs_out() {
        QuotaLease lease = lease(100);
        assertThat(lease.tryTake(1))
                .as("on credit while the first lease is on its way")
                .isTrue();
        assertThat(calls).hasSize(1);
        assertThat(last().limit()).isEqualTo(100);
        assertThat(last().want()).isEqualTo(10);
        assertThat(last().owed()).as("the one taken on credit").isEqualTo(1);
        last().answer().complete(new QuotaLease.Grant(10, 800 * MS));
        assertThat(lease.tokens())
                .as("the debt recorded by the counter, 10 more granted")
                .isEqualTo(10);

        assertThat(taken(lease, 5, 1)).isEqualTo(5);
        assertThat(calls).as("5 left: not below half a batch yet").hasSize(1);
        assertThat(lease.tryTake(1)).isTrue();
        assertThat(calls)
                .as("4 left: the next batch is asked for, one request at a time")
                .hasSize(2);
        assertThat(last().owed()).isZero();
        assertThat(taken(lease, 4, 1)).isEqualTo(4);
        assertThat(calls).hasSize(2);
        last().answer().complete(new QuotaLease.Grant(10, 700 * MS));
        assertThat(lease.tokens()).isEqualTo(10);
        assertThat(answers.get()).isEqualTo(2);
    }

    @Test
    void credit_while_a_refill_is_on_its_way_is_bounded_by_one_batch_and_paid_with_the_next_request() {
        QuotaLease lease = lease(100);
        assertThat(taken(lease, 15, 1)).as("one batch on credit, then refused").isEqualTo(10);
        assertThat(calls).hasSize(1);
        assertThat(lease.tokens()).isEqualTo(-10);
        assertThat(last().owed()).as("owed when the request went").isEqualTo(1);
        last().answer().complete(new QuotaLease.Grant(10, 900 * MS));
        assertThat(lease.tokens())
                .as("11 counted (1 owed, 10 granted), 10 taken: the later debt is paid from the grant")
                .isEqualTo(1);
        assertThat(lease.tryTake(1)).isTrue();
        assertThat(lease.tryTake(1)).as("on credit again").isTrue();
        assertThat(calls).hasSize(2);
        assertThat(last().owed()).isZero();
        last().answer().complete(new QuotaLease.Grant(10, 900 * MS));
        assertThat(lease.tokens()).isEqualTo(9);
    }

    @Test
    void a_used_up_window_refuses_without_calling_the_counter_until_it_ends() {
        QuotaLease lease = lease(100);
        lease.tryTake(1);
        last().answer().complete(new QuotaLease.Grant(3, 400 * MS));
        assertThat(lease.exhausted()).isTrue();
        assertThat(taken(lease, 10, 1)).as("the 3 granted, then nothing").isEqualTo(3);
        assertThat(calls).hasSize(1);

        now.addAndGet(400 * MS);
        assertThat(lease.tryTake(1)).as("a new window").isTrue();
        assertThat(calls).hasSize(2);
    }

    @Test
    void unused_tokens_go_at_the_end_of_the_window_the_counter_named_seen_from_when_it_was_asked() {
        QuotaLease lease = lease(1000);
        lease.tryTake(1);
        now.addAndGet(50 * MS); // the answer takes 50 ms
        last().answer().complete(new QuotaLease.Grant(100, 300 * MS));
        assertThat(lease.tokens()).isEqualTo(100);
        now.addAndGet(249 * MS);
        assertThat(lease.tryTake(1)).isTrue();
        assertThat(lease.tokens()).isEqualTo(99);
        now.addAndGet(1 * MS); // 300 ms after the request was sent
        assertThat(lease.tryTake(1)).isTrue();
        assertThat(lease.tokens()).as("the 99 left were of the old window").isEqualTo(-1);
    }

    @Test
    void a_grant_for_a_window_that_ended_meanwhile_is_not_used() {
        QuotaLease lease = lease(100);
        lease.tryTake(1);
        now.addAndGet(20 * MS);
        last().answer().complete(new QuotaLease.Grant(10, 10 * MS));
        assertThat(lease.tokens()).as("the debt is paid, the tokens are gone").isZero();
    }

    @Test
    void without_redis_the_node_admits_at_most_the_quota_per_window_by_itself() {
        QuotaLease lease = lease(20);
        assertThat(lease.tryTake(1)).isTrue();
        last().answer().completeExceptionally(new IllegalStateException("connection refused"));
        assertThat(failures.get()).isEqualTo(1);
        assertThat(taken(lease, 50, 1))
                .as("20 per window, 1 of them taken before")
                .isEqualTo(19);
        assertThat(calls).as("no more calls to Redis in this window").hasSize(1);

        now.addAndGet(1000 * MS);
        assertThat(lease.tryTake(1)).isTrue();
        assertThat(calls).as("the next window tries Redis again").hasSize(2);
        last().answer().complete(new QuotaLease.Grant(2, 500 * MS));
        assertThat(answers.get()).isEqualTo(1);
    }

    @Test
    void a_quota_of_zero_refuses_everything_and_a_changed_quota_goes_with_the_next_request() {
        QuotaLease zero = lease(0);
        assertThat(taken(zero, 5, 1)).isZero();
        assertThat(calls).isEmpty();

        QuotaLease lease = lease(100);
        lease.tryTake(1);
        last().answer().complete(new QuotaLease.Grant(10, 900 * MS));
        lease.limit(1000);
        taken(lease, 6, 1);
        assertThat(last().limit()).isEqualTo(1000);
        assertThat(last().want()).isEqualTo(100);
    }

    @Test
    void a_payload_larger_than_a_batch_asks_for_as_many_tokens_as_it_needs() {
        QuotaLease lease = lease(1000); // bytes: batches of 100
        assertThat(lease.tryTake(500)).as("on credit").isTrue();
        assertThat(last().want()).isEqualTo(500);
        assertThat(last().owed()).isEqualTo(500);
        assertThat(lease.tryTake(1)).as("more than a batch owed already").isFalse();
        last().answer().complete(new QuotaLease.Grant(500, 900 * MS));
        assertThat(lease.tokens()).isEqualTo(500);
    }

    @Test
    void has_room_asks_nothing_of_the_slice_and_spend_goes_into_debt_paid_in_the_next_window() {
        QuotaLease lease = lease(100);
        assertThat(lease.hasRoom()).as("credit allowed before the first lease").isTrue();
        assertThat(calls).as("asking for room asks for the first batch").hasSize(1);
        assertThat(last().owed()).isZero();
        last().answer().complete(new QuotaLease.Grant(0, 800 * MS)); // the window is used up by other nodes
        assertThat(lease.exhausted()).isTrue();
        assertThat(lease.hasRoom()).isFalse();
        assertThat(lease.tryTake(1)).isFalse();

        lease.spend(30); // read from a session queue before the room was gone
        assertThat(lease.tokens()).isEqualTo(-30);
        assertThat(calls).as("no call while the window is used up").hasSize(1);

        now.addAndGet(800 * MS); // the next window
        assertThat(lease.hasRoom()).as("the debt exceeds the credit allowed").isFalse();
        assertThat(calls).as("the debt goes with the next request").hasSize(2);
        assertThat(last().owed()).isEqualTo(30);
        last().answer().complete(new QuotaLease.Grant(10, 900 * MS));
        assertThat(lease.tokens()).as("debt recorded, 10 granted").isEqualTo(10);
        assertThat(lease.hasRoom()).isTrue();
    }
}
