package io.tributary.kafka.sys;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** The shared $SYS schedule: what one round sends, that a failing round does not end the schedule, and zero. */
class PeriodicSysFiguresTest {

    private final List<ProducerRecord<byte[], byte[]>> sent = new CopyOnWriteArrayList<>();

    private static ProducerRecord<byte[], byte[]> record(String topic, String payload, long now) {
        return new ProducerRecord<>("t", null, now, topic.getBytes(UTF_8), payload.getBytes(UTF_8));
    }

    @Test
    void one_round_sends_each_figure_with_the_same_timestamp() {
        try (PeriodicSysFigures figures = new PeriodicSysFigures(
                "test",
                Duration.ofSeconds(10),
                () -> Map.of("a", "1", "b", "2"),
                PeriodicSysFiguresTest::record,
                (r, outcome) -> {
                    sent.add(r);
                    outcome.accept(null);
                })) {
            figures.publishOnce();
        }
        assertThat(sent).extracting(r -> new String(r.key(), UTF_8)).containsExactlyInAnyOrder("a", "b");
        assertThat(sent)
                .extracting(ProducerRecord::timestamp)
                .containsOnly(sent.get(0).timestamp());
    }

    @Test
    void a_round_that_throws_or_fails_to_send_leaves_the_schedule_running() throws InterruptedException {
        AtomicInteger rounds = new AtomicInteger();
        CountDownLatch third = new CountDownLatch(3);
        try (PeriodicSysFigures figures = new PeriodicSysFigures(
                "test",
                Duration.ofMillis(20),
                () -> {
                    third.countDown();
                    if (rounds.incrementAndGet() == 1) {
                        throw new IllegalStateException("first round fails");
                    }
                    return Map.of("a", "1");
                },
                PeriodicSysFiguresTest::record,
                (r, outcome) -> {
                    sent.add(r);
                    outcome.accept(new RuntimeException("Kafka down"));
                })) {
            figures.start(Duration.ZERO);
            assertThat(third.await(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(sent).isNotEmpty();
    }

    @Test
    void an_interval_of_zero_disables_publishing() {
        try (PeriodicSysFigures figures = new PeriodicSysFigures(
                "test", Duration.ZERO, () -> Map.of("a", "1"), PeriodicSysFiguresTest::record, (r, o) -> sent.add(r))) {
            assertThat(figures.enabled()).isFalse();
            assertThatCode(() -> figures.start(Duration.ZERO)).doesNotThrowAnyException();
        }
        assertThat(sent).isEmpty();
    }
}
