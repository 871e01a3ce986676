package io.tributary.sessionqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.api.sync.RedisCommands;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.redis.ManagedRedisConnection;
import io.tributary.sessionqueue.QueueAppender.Status;
import io.tributary.sessionqueue.QueueHold.Held;
import io.tributary.sessionqueue.QueueHold.HistoryEntry;
import io.tributary.sessionqueue.QueueHold.Released;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A replay's hold of a session queue against a real Redis: routed entries wait in the hold stream, the history goes
 * into the queue before them, the seam's duplicates are dropped, and a hold whose replay died ends by itself.
 */
class QueueHoldTest {

    private static final Duration MINUTE = Duration.ofMinutes(1);

    private static ManagedRedisConnection<byte[], byte[]> binary;
    private static ManagedRedisConnection<String, String> text;
    private static RedisCommands<String, String> commands;
    private static QueueAppender appender;
    private static QueueHold hold;

    @BeforeAll
    static void connect() {
        binary = TestRedis.binary();
        text = TestRedis.text();
        commands = text.connection().sync();
        appender = new RedisQueueAppender(binary, 100, 1L << 30, QueueFullPolicy.DROP_OLDEST);
        hold = new RedisQueueHold(binary);
    }

    @AfterAll
    static void disconnect() {
        binary.close();
        text.close();
    }

    private static void createQueue(String clientId) {
        commands.del(
                SessionQueueKeys.queue(clientId),
                SessionQueueKeys.meta(clientId),
                SessionQueueKeys.hold(clientId),
                SessionQueueKeys.held(clientId),
                SessionQueueKeys.covered(clientId));
        commands.hset(SessionQueueKeys.meta(clientId), SessionQueueKeys.CREATED, "now");
    }

    private static ConsumerRecord<byte[], byte[]> publish(int partition, long offset) {
        return publish(partition, offset, "a/b");
    }

    private static ConsumerRecord<byte[], byte[]> publish(int partition, long offset, String topic) {
        ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>(
                "tributary.publish",
                partition,
                offset,
                topic.getBytes(StandardCharsets.UTF_8),
                name(partition, offset).getBytes(StandardCharsets.UTF_8));
        record.headers().add(new RecordHeader(RecordHeaders.QOS, new byte[] {1}));
        return record;
    }

    private static String name(int partition, long offset) {
        return partition + "/" + offset;
    }

    private static HistoryEntry history(int partition, long offset) {
        return new HistoryEntry(
                partition,
                offset,
                "a/b".getBytes(StandardCharsets.UTF_8),
                name(partition, offset).getBytes(StandardCharsets.UTF_8),
                EntryHeaders.encode(new org.apache.kafka.common.header.internals.RecordHeaders()));
    }

    private static Status route(String clientId, int partition, long offset) throws Exception {
        return appender.append(clientId, publish(partition, offset), "").get().status();
    }

    /** The queue's payloads in queue order, each with the position its entry carries. */
    private static List<String> queue(String clientId) {
        return commands.xrange(SessionQueueKeys.queue(clientId), Range.create("-", "+")).stream()
                .map(StreamMessage::getBody)
                .map(body -> {
                    assertThat(body.get(SessionQueueKeys.FIELD_POSITION))
                            .isEqualTo(body.get(SessionQueueKeys.FIELD_PAYLOAD).replace('/', ':'));
                    return body.get(SessionQueueKeys.FIELD_PAYLOAD);
                })
                .toList();
    }

    @Test
    void a_hold_diverts_routed_entries_and_its_release_puts_them_behind_the_history_without_the_seam_duplicates()
            throws Exception {
        createQueue("h-seam");
        assertThat(route("h-seam", 0, 1)).isEqualTo(Status.APPENDED);
        assertThat(hold.hold("h-seam", "r1", MINUTE).get()).isEqualTo(Held.HELD);
        assertThat(hold.hold("h-seam", "r2", MINUTE).get())
                .as("a second replay while the first holds the queue")
                .isEqualTo(Held.BUSY);

        // Routed during the hold: 0/2 is also in the history (published before the end offsets), 0/3 is not.
        QueueAppender.Appended during =
                appender.append("h-seam", publish(0, 2), "").get();
        assertThat(during.status()).isEqualTo(Status.HELD);
        assertThat(during.seq()).as("keeps the message off the live path").isPositive();
        assertThat(route("h-seam", 0, 3)).isEqualTo(Status.HELD);
        assertThat(queue("h-seam")).containsExactly("0/1");

        assertThat(hold.appendHistory("h-seam", "r1", List.of(history(1, 5), history(0, 2)))
                        .get())
                .isEqualTo(2);
        assertThat(hold.appendHistory("h-seam", "r1", List.of(history(0, 2))).get())
                .as("a batch sent again appends nothing twice")
                .isZero();
        assertThat(queue("h-seam")).containsExactly("0/1", "1/5", "0/2");

        Released released = hold.release("h-seam", "r1", MINUTE).get();
        assertThat(released.done()).isTrue();
        assertThat(released.moved()).isEqualTo(1);
        assertThat(released.dropped()).as("0/2 came with the history").isEqualTo(1);
        assertThat(queue("h-seam")).containsExactly("0/1", "1/5", "0/2", "0/3");
        assertThat(released.lastSeq()).isEqualTo(4);
        assertThat(commands.exists(SessionQueueKeys.hold("h-seam"), SessionQueueKeys.held("h-seam")))
                .isZero();

        // After the hold: appended directly again.
        assertThat(route("h-seam", 0, 4)).isEqualTo(Status.APPENDED);
        assertThat(queue("h-seam")).containsExactly("0/1", "1/5", "0/2", "0/3", "0/4");
    }

    @Test
    void held_entries_below_the_end_offsets_on_a_replayed_topic_belong_to_the_history() throws Exception {
        createQueue("h-ends");
        hold.hold("h-ends", "r1", MINUTE).get();
        // A router that was behind routes older records once the subscription is in its index.
        appender.append("h-ends", publish(0, 5, "a/b"), "").get();
        appender.append("h-ends", publish(1, 3, "c/d"), "").get();
        appender.append("h-ends", publish(2, 4, "$sys/x"), "").get();
        appender.append("h-ends", publish(0, 9, "a/b"), "").get();
        Released released = hold.release(
                        "h-ends", "r1", MINUTE, List.of("a/+", "+/x", "c/#"), java.util.Map.of(0, 8L, 2, 6L))
                .get();
        assertThat(queue("h-ends"))
                .as("0/5 is below the end offset 8 on a/b: the history's; 0/9 is past it; partition 1 was not read"
                        + " (c/d), and no wildcard first level matches $sys/x")
                .containsExactly("1/3", "2/4", "0/9");
        assertThat(released.dropped()).isEqualTo(1);

        // A router still further behind, after the release: the seam is remembered.
        assertThat(route("h-ends", 0, 10)).isEqualTo(Status.APPENDED);
        assertThat(appender.append("h-ends", publish(2, 5, "z/x"), "").get().status())
                .as("below the end offset 6 on a topic +/x matches")
                .isEqualTo(Status.REPLAYED);
        assertThat(appender.append("h-ends", publish(1, 4, "c/d/e"), "").get().status())
                .as("partition 1 was not read by the replay")
                .isEqualTo(Status.APPENDED);
        assertThat(queue("h-ends")).containsExactly("1/3", "2/4", "0/9", "0/10", "1/4");
    }

    @Test
    void a_router_lagging_behind_the_replay_appends_nothing_the_history_covered() throws Exception {
        createQueue("h-lag");
        hold.hold("h-lag", "r1", MINUTE).get();
        hold.appendHistory("h-lag", "r1", List.of(history(4, 9), history(4, 11)))
                .get();
        hold.release("h-lag", "r1", MINUTE).get();

        // The router of partition 4 catches up after the release.
        assertThat(route("h-lag", 4, 9)).isEqualTo(Status.REPLAYED);
        assertThat(route("h-lag", 4, 10)).isEqualTo(Status.APPENDED);
        assertThat(route("h-lag", 4, 11)).isEqualTo(Status.REPLAYED);
        assertThat(queue("h-lag")).containsExactly("4/9", "4/11", "4/10");
        assertThat(commands.pttl(SessionQueueKeys.covered("h-lag")))
                .as("remembered for a while only")
                .isPositive();
    }

    @Test
    void an_entry_not_yet_sent_gives_its_place_to_the_history_one_already_sent_is_not_sent_twice() throws Exception {
        createQueue("h-unsent");
        route("h-unsent", 0, 1);
        route("h-unsent", 0, 2);
        // The client was sent 0/1 (fetched), 0/2 still waits in the queue.
        new RedisQueueReader(binary).fetch("h-unsent", 1, 1).get();
        hold.hold("h-unsent", "r1", MINUTE).get();
        assertThat(hold.appendHistory("h-unsent", "r1", List.of(history(0, 1), history(1, 1), history(0, 2)))
                        .get())
                .isEqualTo(2);
        hold.release("h-unsent", "r1", MINUTE).get();
        assertThat(queue("h-unsent")).containsExactly("0/1", "1/1", "0/2");
    }

    @Test
    void a_hold_whose_replay_died_ends_by_itself_and_its_entries_are_moved_by_the_next_connection() throws Exception {
        createQueue("h-dead");
        route("h-dead", 0, 1);
        hold.hold("h-dead", "r1", Duration.ofMillis(300)).get();
        assertThat(route("h-dead", 0, 2)).isEqualTo(Status.HELD);

        Released early = hold.release("h-dead", null, MINUTE).get();
        assertThat(early.done()).as("the replay may still be running").isFalse();
        assertThat(early.stillHeldMillis()).isPositive();

        Thread.sleep(400);
        assertThat(route("h-dead", 0, 3))
                .as("behind the held ones, until they are moved")
                .isEqualTo(Status.HELD);
        assertThatThrownBy(() -> hold.appendHistory("h-dead", "r1", List.of(history(1, 1)))
                        .get())
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(RedisQueueHold.HoldLostException.class);
        assertThat(hold.hold("h-dead", "r2", MINUTE).get())
                .as("not before the dead replay's entries are moved")
                .isEqualTo(Held.BUSY);

        Released released = hold.release("h-dead", null, MINUTE).get();
        assertThat(released.done()).isTrue();
        assertThat(released.moved()).isEqualTo(2);
        assertThat(queue("h-dead")).containsExactly("0/1", "0/2", "0/3");
        assertThat(route("h-dead", 0, 4)).isEqualTo(Status.APPENDED);
    }

    @Test
    void a_full_queue_counts_the_held_entries() throws Exception {
        createQueue("h-full");
        QueueAppender small = new RedisQueueAppender(binary, 2, 1L << 30, QueueFullPolicy.DROP_NEWEST);
        small.append("h-full", publish(0, 1), "").get();
        hold.hold("h-full", "r1", MINUTE).get();
        assertThat(small.append("h-full", publish(0, 2), "").get().status()).isEqualTo(Status.HELD);
        assertThat(small.append("h-full", publish(0, 3), "").get().status()).isEqualTo(Status.REFUSED_FULL);
        hold.release("h-full", "r1", MINUTE).get();
        assertThat(queue("h-full")).containsExactly("0/1", "0/2");
    }
}
