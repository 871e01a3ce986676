package io.tributary.sessionqueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.api.sync.RedisCommands;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.redis.ManagedRedisConnection;
import io.tributary.sessionqueue.QueueAppender.Appended;
import io.tributary.sessionqueue.QueueAppender.Message;
import io.tributary.sessionqueue.QueueAppender.Status;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The append script against a real Redis: order, idempotence per partition, limits, no queue without a session. */
class QueueAppenderTest {

    private static ManagedRedisConnection<byte[], byte[]> binary;
    private static ManagedRedisConnection<String, String> text;
    private static RedisCommands<String, String> commands;

    @BeforeAll
    static void connect() {
        binary = TestRedis.binary();
        text = TestRedis.text();
        commands = text.connection().sync();
    }

    @AfterAll
    static void disconnect() {
        binary.close();
        text.close();
    }

    private static QueueAppender appender(int limit, QueueFullPolicy policy) {
        return new RedisQueueAppender(binary, limit, 1L << 30, policy);
    }

    private static ConsumerRecord<byte[], byte[]> publish(int partition, long offset, String payload) {
        ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>(
                "tributary.publish",
                partition,
                offset,
                "a/b".getBytes(StandardCharsets.UTF_8),
                payload.getBytes(StandardCharsets.UTF_8));
        record.headers().add(new RecordHeader(RecordHeaders.QOS, new byte[] {1}));
        record.headers().add(new RecordHeader(RecordHeaders.CLIENT_ID, "pub".getBytes(StandardCharsets.UTF_8)));
        return record;
    }

    private static void createQueue(String clientId) {
        commands.hset(SessionQueueKeys.meta(clientId), SessionQueueKeys.CREATED, "now");
    }

    private static List<String> payloads(String clientId) {
        return commands.xrange(SessionQueueKeys.queue(clientId), Range.create("-", "+")).stream()
                .map(StreamMessage::getBody)
                .map(body -> body.get(SessionQueueKeys.FIELD_PAYLOAD))
                .toList();
    }

    @Test
    void appends_in_order_with_consecutive_sequences_and_the_record_headers() throws Exception {
        createQueue("c-order");
        QueueAppender appender = appender(100, QueueFullPolicy.DROP_OLDEST);
        for (int i = 0; i < 5; i++) {
            Appended a = appender.append("c-order", publish(0, i, "m" + i), "").get();
            assertThat(a.status()).isEqualTo(Status.APPENDED);
            assertThat(a.seq()).isEqualTo(i + 1);
        }
        assertThat(payloads("c-order")).containsExactly("m0", "m1", "m2", "m3", "m4");
        assertThat(commands.xrange(SessionQueueKeys.queue("c-order"), Range.create("0-1", "0-5")))
                .extracting(StreamMessage::getId)
                .containsExactly("0-1", "0-2", "0-3", "0-4", "0-5");
    }

    @Test
    void a_batch_routed_again_appends_nothing_twice() throws Exception {
        createQueue("c-replay");
        QueueAppender appender = appender(100, QueueFullPolicy.DROP_OLDEST);
        appender.append("c-replay", publish(3, 10, "a"), "").get();
        appender.append("c-replay", publish(3, 11, "b"), "").get();
        appender.append("c-replay", publish(5, 7, "x"), "").get();
        // The router died before committing: offsets 10 and 11 of partition 3 come again.
        Appended again = appender.append("c-replay", publish(3, 10, "a"), "").get();
        assertThat(again.status()).isEqualTo(Status.REPLAYED);
        assertThat(again.seq())
                .as("the queue's last sequence, to wake the node up")
                .isEqualTo(3);
        assertThat(appender.append("c-replay", publish(3, 11, "b"), "").get().status())
                .isEqualTo(Status.REPLAYED);
        assertThat(appender.append("c-replay", publish(3, 12, "c"), "").get().status())
                .isEqualTo(Status.APPENDED);
        assertThat(payloads("c-replay")).containsExactly("a", "b", "x", "c");
    }

    @Test
    void a_batch_for_one_queue_goes_in_one_step_skipping_what_it_holds_and_dropping_by_the_policy() throws Exception {
        createQueue("c-batch");
        QueueAppender appender = appender(3, QueueFullPolicy.DROP_OLDEST);
        appender.append("c-batch", publish(2, 5, "early"), "").get();
        List<Appended> outcomes = appender.appendAll(
                        "c-batch",
                        2,
                        List.of(
                                message(publish(2, 5, "early")),
                                message(publish(2, 6, "m6")),
                                message(publish(2, 7, "m7")),
                                message(publish(2, 8, "m8"))))
                .get();
        assertThat(outcomes)
                .extracting(Appended::status)
                .containsExactly(
                        Status.REPLAYED, Status.APPENDED,
                        Status.APPENDED, Status.APPENDED);
        assertThat(outcomes).extracting(Appended::seq).containsExactly(1L, 2L, 3L, 4L);
        assertThat(outcomes.get(3).dropped()).as("the limit of 3 drops 'early'").isEqualTo(1);
        // The same batch routed again: nothing twice.
        assertThat(appender.appendAll("c-batch", 2, List.of(message(publish(2, 6, "m6")), message(publish(2, 8, "m8"))))
                        .get())
                .extracting(Appended::status)
                .containsOnly(Status.REPLAYED);
        assertThat(appender.appendAll("c-none", 2, List.of(message(publish(2, 9, "x")), message(publish(2, 10, "y"))))
                        .get())
                .extracting(Appended::status)
                .containsOnly(Status.NO_SESSION);
        assertThat(payloads("c-batch")).containsExactly("m6", "m7", "m8");
    }

    @Test
    void a_script_flushed_from_redis_is_sent_again() throws Exception {
        createQueue("c-flush");
        QueueAppender appender = appender(100, QueueFullPolicy.DROP_OLDEST);
        appender.append("c-flush", publish(0, 0, "m0"), "").get();
        commands.scriptFlush();
        assertThat(appender.append("c-flush", publish(0, 1, "m1"), "").get().status())
                .isEqualTo(Status.APPENDED);
        assertThat(payloads("c-flush")).containsExactly("m0", "m1");
    }

    private static Message message(ConsumerRecord<byte[], byte[]> publish) {
        return new Message(publish, EntryHeaders.encode(publish.headers()), "");
    }

    @Test
    void drop_oldest_keeps_the_latest_and_counts_the_dropped() throws Exception {
        createQueue("c-oldest");
        QueueAppender appender = appender(3, QueueFullPolicy.DROP_OLDEST);
        long dropped = 0;
        for (int i = 0; i < 5; i++) {
            dropped += appender.append("c-oldest", publish(0, i, "m" + i), "")
                    .get()
                    .dropped();
        }
        assertThat(dropped).isEqualTo(2);
        assertThat(payloads("c-oldest")).containsExactly("m2", "m3", "m4");
        assertThat(commands.hget(SessionQueueKeys.meta("c-oldest"), SessionQueueKeys.DROPPED))
                .isEqualTo("2");
    }

    @Test
    void a_lower_limit_for_one_append_caps_that_queue_and_a_higher_one_is_capped_by_the_appenders() throws Exception {
        createQueue("c-tenant");
        createQueue("c-global");
        QueueAppender appender = appender(4, QueueFullPolicy.DROP_OLDEST);
        for (int i = 0; i < 6; i++) {
            appender.appendAll("c-tenant", 0, List.of(message(publish(0, i, "t" + i))), 2)
                    .get();
            appender.appendAll("c-global", 0, List.of(message(publish(0, i, "g" + i))), 1000)
                    .get();
        }
        assertThat(payloads("c-tenant")).containsExactly("t4", "t5");
        assertThat(payloads("c-global")).containsExactly("g2", "g3", "g4", "g5");
        assertThat(commands.hget(SessionQueueKeys.meta("c-tenant"), "dropped")).isEqualTo("4");
    }

    @Test
    void drop_newest_refuses_what_does_not_fit() throws Exception {
        createQueue("c-newest");
        QueueAppender appender = appender(2, QueueFullPolicy.DROP_NEWEST);
        appender.append("c-newest", publish(0, 0, "m0"), "").get();
        appender.append("c-newest", publish(0, 1, "m1"), "").get();
        assertThat(appender.append("c-newest", publish(0, 2, "m2"), "").get().status())
                .isEqualTo(Status.REFUSED_FULL);
        assertThat(payloads("c-newest")).containsExactly("m0", "m1");
        assertThat(commands.hget(SessionQueueKeys.meta("c-newest"), SessionQueueKeys.DROPPED))
                .isEqualTo("1");
    }

    @Test
    void no_queue_is_created_for_a_session_that_has_none() throws Exception {
        QueueAppender appender = appender(10, QueueFullPolicy.DROP_OLDEST);
        assertThat(appender.append("c-gone", publish(0, 0, "m0"), "").get().status())
                .isEqualTo(Status.NO_SESSION);
        assertThat(commands.exists(SessionQueueKeys.queue("c-gone"), SessionQueueKeys.meta("c-gone")))
                .isZero();
    }

    @Test
    void entries_carry_the_record_headers_and_the_share_groups() throws Exception {
        createQueue("c-fields");
        QueueAppender appender = appender(10, QueueFullPolicy.DROP_OLDEST);
        appender.append("c-fields", publish(0, 0, "m0"), "$share/g/a/b").get();
        List<StreamMessage<byte[], byte[]>> entries = binary.connection()
                .sync()
                .xrange(SessionQueueKeys.queue("c-fields").getBytes(StandardCharsets.UTF_8), Range.create("-", "+"));
        assertThat(entries).hasSize(1);
        Map<String, byte[]> fields = new HashMap<>();
        entries.get(0).getBody().forEach((k, v) -> fields.put(new String(k, StandardCharsets.UTF_8), v));
        assertThat(new String(fields.get(SessionQueueKeys.FIELD_TOPIC), StandardCharsets.UTF_8))
                .isEqualTo("a/b");
        assertThat(new String(fields.get(SessionQueueKeys.FIELD_SHARED), StandardCharsets.UTF_8))
                .isEqualTo("$share/g/a/b");
        var headers = EntryHeaders.decode(fields.get(SessionQueueKeys.FIELD_HEADERS));
        assertThat(RecordHeaders.readQos(headers)).isEqualTo(1);
        assertThat(RecordHeaders.readString(headers, RecordHeaders.CLIENT_ID)).isEqualTo("pub");
    }
}
