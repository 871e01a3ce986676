package io.tributary.sessionqueue;

import static io.tributary.sessionqueue.QueueBytes.bytes;
import static io.tributary.sessionqueue.QueueBytes.entrySize;
import static io.tributary.sessionqueue.QueueBytes.publish;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.redis.ManagedRedisConnection;
import io.tributary.sessionqueue.QueueAppender.Appended;
import io.tributary.sessionqueue.QueueAppender.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The byte budget of a session queue against a real Redis (issue 34: a persistent session that subscribes to large
 * messages and stays offline must not fill the Redis every client shares): both policies keep a queue's bytes under
 * it, removals give the bytes back, held entries count, and a queue from before the budget gets its counter from its
 * entries.
 */
class QueueByteBudgetTest {

    /** Every message of these tests: a 10,000-byte payload, so three fit in the budget and a fourth does not. */
    private static final int PAYLOAD = 10_000;

    private static final long ENTRY = entrySize(0, 0, PAYLOAD);
    private static final long BUDGET = 3 * ENTRY + ENTRY / 2;

    private static ManagedRedisConnection<byte[], byte[]> binary;
    private static QueueBytes queues;
    private static RedisQueueReader reader;

    @BeforeAll
    static void connect() {
        binary = TestRedis.binary();
        queues = new QueueBytes(binary);
        reader = new RedisQueueReader(binary);
    }

    @AfterAll
    static void disconnect() {
        binary.close();
    }

    private static QueueAppender appender(QueueFullPolicy policy) {
        return new RedisQueueAppender(binary, 1000, BUDGET, policy);
    }

    private static Appended append(QueueAppender appender, String clientId, long offset, int size) throws Exception {
        return appender.append(clientId, publish(0, offset, size), "").get();
    }

    @Test
    void drop_oldest_drops_the_oldest_until_a_large_message_fits_and_counts_every_drop() throws Exception {
        queues.create("b-oldest");
        QueueAppender appender = appender(QueueFullPolicy.DROP_OLDEST);
        long droppedForBytes = 0;
        for (int i = 0; i < 10; i++) {
            Appended a = append(appender, "b-oldest", i, PAYLOAD);
            assertThat(a.status()).isEqualTo(Status.APPENDED);
            assertThat(a.dropped()).isEqualTo(a.droppedForBytes());
            droppedForBytes += a.droppedForBytes();
            assertThat(queues.held("b-oldest")).isLessThanOrEqualTo(BUDGET);
        }
        assertThat(queues.length("b-oldest")).as("the three newest").isEqualTo(3);
        assertThat(reader.fetch("b-oldest", 1, 10).get().entries())
                .extracting(QueueReader.Entry::seq)
                .containsExactly(8L, 9L, 10L);
        assertThat(droppedForBytes).isEqualTo(7);
        assertThat(queues.dropped("b-oldest")).as("the session's queue.dropped").isEqualTo(7);
        assertThat(queues.counter("b-oldest"))
                .isEqualTo(queues.held("b-oldest"))
                .isEqualTo(3 * ENTRY);
    }

    @Test
    void drop_newest_refuses_what_would_go_past_the_budget() throws Exception {
        queues.create("b-newest");
        QueueAppender appender = appender(QueueFullPolicy.DROP_NEWEST);
        for (int i = 0; i < 10; i++) {
            Appended a = append(appender, "b-newest", i, PAYLOAD);
            if (i < 3) {
                assertThat(a.status()).isEqualTo(Status.APPENDED);
            } else {
                assertThat(a).isEqualTo(new Appended(Status.REFUSED_FULL, 0, 1, 1));
            }
        }
        assertThat(append(appender, "b-newest", 10, 10).status())
                .as("a small one still fits")
                .isEqualTo(Status.APPENDED);
        assertThat(queues.length("b-newest")).isEqualTo(4);
        assertThat(queues.dropped("b-newest")).isEqualTo(7);
        assertThat(queues.counter("b-newest"))
                .isEqualTo(queues.held("b-newest"))
                .isLessThanOrEqualTo(BUDGET);
    }

    @Test
    void a_message_larger_than_the_whole_budget_is_refused_by_both_policies_and_drops_nothing() throws Exception {
        for (QueueFullPolicy policy : QueueFullPolicy.values()) {
            String client = "b-huge-" + policy;
            queues.create(client);
            QueueAppender appender = appender(policy);
            append(appender, client, 0, PAYLOAD);
            assertThat(append(appender, client, 1, (int) BUDGET)).isEqualTo(new Appended(Status.REFUSED_FULL, 0, 1, 1));
            assertThat(queues.length(client))
                    .as("the queue kept for a message that cannot fit anyway")
                    .isEqualTo(1);
            assertThat(queues.dropped(client)).isEqualTo(1);
            assertThat(queues.counter(client)).isEqualTo(ENTRY);
        }
    }

    @Test
    void the_message_limit_and_the_byte_budget_drop_each_their_own() throws Exception {
        queues.create("b-both");
        QueueAppender appender = new RedisQueueAppender(binary, 2, BUDGET, QueueFullPolicy.DROP_OLDEST);
        append(appender, "b-both", 0, 10);
        append(appender, "b-both", 1, 10);
        assertThat(append(appender, "b-both", 2, 10))
                .as("the message limit")
                .isEqualTo(new Appended(Status.APPENDED, 3, 1, 0));
        // Fits in the budget alone, not with the one the message limit leaves.
        int nearlyBudget = (int) (BUDGET - (ENTRY - PAYLOAD)) - 5;
        assertThat(append(appender, "b-both", 3, nearlyBudget))
                .as("the message limit drops one, the bytes the other")
                .isEqualTo(new Appended(Status.APPENDED, 4, 2, 1));
        assertThat(queues.counter("b-both")).isEqualTo(queues.held("b-both")).isEqualTo(BUDGET - 5);
    }

    @Test
    void acknowledgements_and_releases_give_the_bytes_back() throws Exception {
        queues.create("b-acks");
        QueueAppender appender = appender(QueueFullPolicy.DROP_NEWEST);
        for (int i = 0; i < 3; i++) {
            append(appender, "b-acks", i, PAYLOAD);
        }
        assertThat(append(appender, "b-acks", 3, PAYLOAD).status()).isEqualTo(Status.REFUSED_FULL);
        reader.fetch("b-acks", 1, 10).get();

        assertThat(reader.remove("b-acks", 1).get()).isEqualTo(1);
        assertThat(queues.counter("b-acks")).isEqualTo(2 * ENTRY);
        assertThat(reader.remove("b-acks", 1).get())
                .as("removed twice: nothing more")
                .isZero();
        assertThat(queues.counter("b-acks")).isEqualTo(2 * ENTRY);
        assertThat(reader.released("b-acks", 2, 2).get()).isEqualTo(1L);
        assertThat(queues.counter("b-acks"))
                .as("PUBREC takes a QoS 2 message out")
                .isEqualTo(ENTRY);
        assertThat(reader.removeAll("b-acks", List.of(3L, 99L)).get()).isEqualTo(1);
        assertThat(queues.counter("b-acks")).isZero();

        for (int i = 4; i < 7; i++) {
            assertThat(append(appender, "b-acks", i, PAYLOAD).status())
                    .as("the budget is there again")
                    .isEqualTo(Status.APPENDED);
        }
        assertThat(queues.counter("b-acks")).isEqualTo(queues.held("b-acks")).isEqualTo(3 * ENTRY);
    }

    @Test
    void entries_held_behind_a_replay_count_and_stay_counted_when_moved() throws Exception {
        queues.create("b-held");
        QueueAppender appender = appender(QueueFullPolicy.DROP_OLDEST);
        QueueHold hold = new RedisQueueHold(binary);
        append(appender, "b-held", 0, PAYLOAD);
        hold.hold("b-held", "r1", Duration.ofMinutes(1)).get();
        for (int i = 1; i < 5; i++) {
            assertThat(append(appender, "b-held", i, PAYLOAD).status()).isEqualTo(Status.HELD);
        }
        assertThat(queues.length("b-held")).isEqualTo(3);
        assertThat(queues.counter("b-held")).isEqualTo(queues.held("b-held")).isEqualTo(3 * ENTRY);
        hold.release("b-held", "r1", Duration.ofMinutes(1)).get();
        assertThat(queues.counter("b-held")).isEqualTo(queues.held("b-held")).isEqualTo(3 * ENTRY);
    }

    @Test
    void a_queue_from_before_the_budget_gets_its_counter_from_its_entries_on_its_next_append() throws Exception {
        queues.create("b-old");
        var redis = queues.commands();
        byte[] queue = bytes(SessionQueueKeys.queue("b-old"));
        for (int seq = 1; seq <= 5; seq++) {
            // As the scripts before the budget wrote them: no counter.
            redis.xadd(
                    queue,
                    new io.lettuce.core.XAddArgs().id("0-" + seq),
                    java.util.Map.of(bytes("t"), bytes("a/b"), bytes("p"), new byte[PAYLOAD]));
        }
        redis.hset(bytes(SessionQueueKeys.meta("b-old")), bytes(SessionQueueKeys.SEQ), bytes("5"));
        reader.remove("b-old", 1).get();
        assertThat(queues.counter("b-old"))
                .as("no counter yet: nothing to subtract from")
                .isNull();

        QueueAppender appender = appender(QueueFullPolicy.DROP_OLDEST);
        Appended a = append(appender, "b-old", 0, PAYLOAD);
        assertThat(a.droppedForBytes())
                .as("four old entries and the new one do not fit")
                .isEqualTo(2);
        assertThat(queues.counter("b-old")).isEqualTo(queues.held("b-old")).isLessThanOrEqualTo(BUDGET);
    }

    @Test
    void a_removal_after_the_session_was_deleted_leaves_no_key_behind() throws Exception {
        queues.create("b-gone");
        append(appender(QueueFullPolicy.DROP_OLDEST), "b-gone", 0, PAYLOAD);
        try (ManagedRedisConnection<String, String> text = TestRedis.text()) {
            QueueAdmin admin = new RedisQueueAdmin(text);
            admin.delete("b-gone");
            reader.remove("b-gone", 1).get();
            assertThat(queues.commands()
                            .exists(bytes(SessionQueueKeys.meta("b-gone")), bytes(SessionQueueKeys.queue("b-gone"))))
                    .as("a late acknowledgement brings no meta hash back")
                    .isZero();
            admin.ensureAll(List.of("b-gone"), Instant.now());
        }
        assertThat(append(appender(QueueFullPolicy.DROP_OLDEST), "b-gone", 1, PAYLOAD)
                        .status())
                .isEqualTo(Status.APPENDED);
        assertThat(queues.counter("b-gone"))
                .as("the new session's queue counts from 0")
                .isEqualTo(ENTRY);
    }
}
