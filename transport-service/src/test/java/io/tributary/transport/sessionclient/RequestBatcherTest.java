package io.tributary.transport.sessionclient;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class RequestBatcherTest {

    /** A call whose answers the test releases: every request answered with itself times ten. */
    private static final class ManualCall implements Function<List<Integer>, CompletableFuture<List<Integer>>> {
        final List<List<Integer>> batches = new ArrayList<>();
        final List<CompletableFuture<List<Integer>>> answers = new ArrayList<>();

        @Override
        public synchronized CompletableFuture<List<Integer>> apply(List<Integer> batch) {
            batches.add(batch);
            CompletableFuture<List<Integer>> answer = new CompletableFuture<>();
            answers.add(answer);
            return answer;
        }

        void answer(int call) {
            answers.get(call)
                    .complete(batches.get(call).stream().map(i -> i * 10).toList());
        }
    }

    private final AtomicLong now = new AtomicLong();

    @Test
    void test_a_lone_request_goes_at_once_and_what_waits_goes_in_one_call() {
        ManualCall call = new ManualCall();
        RequestBatcher<Integer, Integer> batcher =
                new RequestBatcher<>("test", call, 1, 100, 1000, 5_000_000_000L, now::get, Runnable::run);
        CompletableFuture<Integer> first = batcher.submit(1);
        List<CompletableFuture<Integer>> waiting = new ArrayList<>();
        for (int i = 2; i <= 6; i++) {
            waiting.add(batcher.submit(i));
        }
        assertThat(call.batches).containsExactly(List.of(1));
        assertThat(batcher.waiting()).isEqualTo(5);

        call.answer(0);
        assertThat(first).isCompletedWithValue(10);
        assertThat(call.batches).containsExactly(List.of(1), List.of(2, 3, 4, 5, 6));
        call.answer(1);
        assertThat(waiting).extracting(CompletableFuture::join).containsExactly(20, 30, 40, 50, 60);
        assertThat(batcher.inFlight()).isZero();
    }

    @Test
    void test_calls_carry_at_most_max_batch_and_run_at_most_max_in_flight() {
        ManualCall call = new ManualCall();
        RequestBatcher<Integer, Integer> batcher =
                new RequestBatcher<>("test", call, 2, 3, 1000, 5_000_000_000L, now::get, Runnable::run);
        for (int i = 1; i <= 10; i++) {
            batcher.submit(i);
        }
        assertThat(call.batches).containsExactly(List.of(1), List.of(2));
        call.answer(0);
        call.answer(1);
        assertThat(call.batches).containsExactly(List.of(1), List.of(2), List.of(3, 4, 5), List.of(6, 7, 8));
        assertThat(batcher.inFlight()).isEqualTo(2);
    }

    @Test
    void test_beyond_max_queued_a_request_is_refused_at_once() {
        ManualCall call = new ManualCall();
        RequestBatcher<Integer, Integer> batcher =
                new RequestBatcher<>("CONNECT", call, 1, 100, 2, 5_000_000_000L, now::get, Runnable::run);
        batcher.submit(1);
        batcher.submit(2);
        batcher.submit(3);
        CompletableFuture<Integer> refused = batcher.submit(4);
        assertThat(refused).isCompletedExceptionally();
        assertThat(refused.handle((v, e) -> e).join())
                .isInstanceOf(RequestBatcher.OverloadedException.class)
                .hasMessageContaining("2 CONNECT requests are waiting");
    }

    @Test
    void test_a_request_that_waited_too_long_is_refused_instead_of_sent() {
        ManualCall call = new ManualCall();
        RequestBatcher<Integer, Integer> batcher =
                new RequestBatcher<>("test", call, 1, 100, 100, 1_000L, now::get, Runnable::run);
        batcher.submit(1);
        CompletableFuture<Integer> stale = batcher.submit(2);
        now.addAndGet(500);
        CompletableFuture<Integer> fresh = batcher.submit(3);
        now.addAndGet(600);
        call.answer(0);
        assertThat(stale.handle((v, e) -> e).join()).isInstanceOf(RequestBatcher.OverloadedException.class);
        assertThat(call.batches.get(1)).containsExactly(3);
        call.answer(1);
        assertThat(fresh).isCompletedWithValue(30);
    }

    @Test
    void test_a_failed_call_fails_its_requests_and_the_next_call_goes() {
        ManualCall call = new ManualCall();
        RequestBatcher<Integer, Integer> batcher =
                new RequestBatcher<>("test", call, 1, 100, 100, 5_000_000_000L, now::get, Runnable::run);
        CompletableFuture<Integer> first = batcher.submit(1);
        CompletableFuture<Integer> second = batcher.submit(2);
        call.answers.get(0).completeExceptionally(new IllegalStateException("down"));
        assertThat(first).isCompletedExceptionally();
        assertThat(call.batches).hasSize(2);
        call.answers.get(1).complete(List.of());
        assertThat(second.handle((v, e) -> e).join())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("answered with 0 results");
    }

    @Test
    void test_a_group_goes_whole_and_in_order_in_one_call_even_past_max_batch() {
        ManualCall call = new ManualCall();
        RequestBatcher<Integer, Integer> batcher =
                new RequestBatcher<>("test", call, 2, 3, 1000, 5_000_000_000L, now::get, Runnable::run);
        batcher.submit(1);
        batcher.submit(2);
        batcher.submit(3);
        List<CompletableFuture<Integer>> group = batcher.submitAll(List.of(4, 5, 6, 7));
        batcher.submit(8);

        call.answer(0);
        assertThat(call.batches.get(2)).containsExactly(3, 4, 5, 6, 7);
        call.answer(1);
        call.answer(2);
        assertThat(group).extracting(CompletableFuture::join).containsExactly(40, 50, 60, 70);
        assertThat(call.batches.get(3)).containsExactly(8);
    }

    @Test
    void test_a_group_beyond_max_queued_is_refused_whole() {
        ManualCall call = new ManualCall();
        RequestBatcher<Integer, Integer> batcher =
                new RequestBatcher<>("SUBSCRIBE", call, 1, 100, 3, 5_000_000_000L, now::get, Runnable::run);
        batcher.submit(1);
        batcher.submit(2);
        List<CompletableFuture<Integer>> group = batcher.submitAll(List.of(3, 4, 5));

        assertThat(group).allMatch(CompletableFuture::isCompletedExceptionally);
        assertThat(batcher.waiting()).isEqualTo(1);
    }
}
