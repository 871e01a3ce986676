package io.tributary.common.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.retry.Backoff;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

class PollLoopTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    /** A loop whose rounds do what the test says, round by round (1 for the first), and that records what happened. */
    private static class Scripted extends PollLoop {
        final AtomicInteger rounds = new AtomicInteger();
        final List<Duration> retryWaits = new CopyOnWriteArrayList<>();
        final List<RuntimeException> fatal = new CopyOnWriteArrayList<>();
        final CountDownLatch ended = new CountDownLatch(1);
        volatile Thread endedOn;
        private final IntFunction<RuntimeException> failureOfRound;

        Scripted(Backoff backoff, IntFunction<RuntimeException> failureOfRound) {
            super("scripted-loop", true, backoff, WAIT);
            this.failureOfRound = failureOfRound;
        }

        void start() {
            startLoop();
        }

        @Override
        protected void pollOnce() {
            RuntimeException failure = failureOfRound.apply(rounds.incrementAndGet());
            if (failure != null) {
                throw failure;
            }
            pause(Duration.ofMillis(1));
        }

        @Override
        protected boolean retries(RuntimeException failure) {
            return !(failure instanceof UnsupportedOperationException);
        }

        @Override
        protected void onFailure(RuntimeException failure, Duration retryIn) {
            retryWaits.add(retryIn);
        }

        @Override
        protected void onFatal(RuntimeException failure) {
            fatal.add(failure);
        }

        @Override
        protected void onLoopEnd() {
            endedOn = Thread.currentThread();
            ended.countDown();
        }
    }

    @Test
    void failed_rounds_are_retried_after_a_growing_backoff_that_a_round_that_works_resets() throws Exception {
        Scripted loop = new Scripted(
                new Backoff(Duration.ofMillis(1), Duration.ofMillis(4)),
                round -> round <= 4 || round == 6 ? new IllegalStateException("round " + round) : null);
        loop.start();
        awaitRounds(loop, 8);
        loop.stop();

        assertThat(loop.retryWaits).extracting(Duration::toMillis).containsExactly(1L, 2L, 4L, 4L, 1L);
        assertThat(loop.isRunning()).isFalse();
        assertThat(loop.isAlive()).isFalse();
        assertThat(loop.endedOn.getName()).isEqualTo("scripted-loop");
    }

    @Test
    void stop_ends_a_long_backoff_pause_at_once() throws Exception {
        Scripted loop = new Scripted(Backoff.fixed(Duration.ofMinutes(5)), round -> new IllegalStateException("down"));
        loop.start();
        awaitRounds(loop, 1);
        long began = System.nanoTime();
        loop.stop();

        assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(WAIT);
        assertThat(loop.isAlive()).isFalse();
        assertThat(loop.rounds.get()).isEqualTo(1);
        assertThat(loop.ended.getCount()).isZero();
    }

    @Test
    void a_failure_the_loop_does_not_retry_ends_it_and_still_closes() throws Exception {
        Scripted loop = new Scripted(
                Backoff.fixed(Duration.ofMillis(1)),
                round -> round == 3 ? new UnsupportedOperationException("bug") : null);
        loop.start();

        assertThat(loop.ended.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(loop.fatal).singleElement().extracting(Throwable::getMessage).isEqualTo("bug");
        assertThat(loop.retryWaits).isEmpty();
        assertThat(loop.isRunning()).isFalse();
    }

    /** A real consumer with no broker behind it blocks in poll for the whole timeout unless woken. */
    @Test
    void stop_wakes_a_real_consumer_blocked_in_poll_and_the_loop_thread_closes_it() throws Exception {
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class));
        consumer.assign(List.of(new TopicPartition("t", 0)));
        CountDownLatch polling = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        PollLoop loop = new PollLoop("consumer-loop", true, Backoff.fixed(Duration.ofMinutes(5)), WAIT) {
            @Override
            protected void pollOnce() {
                polling.countDown();
                consumer.poll(Duration.ofMinutes(5));
            }

            @Override
            protected void onLoopEnd() {
                consumer.close(Duration.ZERO);
                closed.countDown();
            }
        };
        startLoop(loop, consumer);
        assertThat(polling.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        Thread.sleep(200);
        long began = System.nanoTime();
        loop.stop();

        assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(WAIT);
        assertThat(closed.getCount()).isZero();
        assertThat(loop.isAlive()).isFalse();
    }

    private static void startLoop(PollLoop loop, Consumer<?, ?> consumer) {
        loop.startLoop(consumer);
    }

    private static void awaitRounds(Scripted loop, int rounds) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (loop.rounds.get() < rounds && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(loop.rounds.get()).isGreaterThanOrEqualTo(rounds);
    }
}
