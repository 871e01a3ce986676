package io.tributary.sessionqueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.api.sync.RedisCommands;
import io.tributary.redis.ManagedRedisConnection;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** session-service's side of a queue against a real Redis: created with the session, deleted with it, its stats. */
class QueueAdminTest {

    private static ManagedRedisConnection<byte[], byte[]> binary;
    private static ManagedRedisConnection<String, String> text;
    private static RedisCommands<String, String> commands;
    private static QueueAdmin admin;
    private static QueueAppender appender;
    private static RedisQueueReader reader;

    @BeforeAll
    static void connect() {
        binary = TestRedis.binary();
        text = TestRedis.text();
        commands = text.connection().sync();
        admin = new RedisQueueAdmin(text);
        appender = new RedisQueueAppender(binary, 2, 1L << 30, QueueFullPolicy.DROP_OLDEST);
        reader = new RedisQueueReader(binary);
    }

    @AfterAll
    static void disconnect() {
        binary.close();
        text.close();
    }

    private static ConsumerRecord<byte[], byte[]> publish(long offset) {
        return new ConsumerRecord<>(
                "tributary.publish",
                0,
                offset,
                "t".getBytes(StandardCharsets.UTF_8),
                ("m" + offset).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void ensure_creates_a_queue_once_and_keeps_an_existing_one_as_it_is() throws Exception {
        Instant first = Instant.parse("2026-01-01T00:00:00Z");
        admin.ensureAll(List.of("a-1", "a-2"), first);
        appender.append("a-1", publish(0), "").get();
        admin.ensureAll(List.of("a-1"), first.plusSeconds(60));
        assertThat(commands.hget(SessionQueueKeys.meta("a-1"), SessionQueueKeys.CREATED))
                .as("the incarnation of the resumed session")
                .isEqualTo(first.toString());
        assertThat(admin.stats("a-1").queued()).isEqualTo(1);
        assertThat(commands.hget(SessionQueueKeys.meta("a-2"), SessionQueueKeys.CREATED))
                .isEqualTo(first.toString());
    }

    @Test
    void stats_read_length_drops_and_last_sequence() throws Exception {
        assertThat(admin.stats("a-none")).isEqualTo(QueueAdmin.Stats.NONE);
        admin.ensureAll(List.of("a-stats"), Instant.now());
        for (int i = 0; i < 5; i++) {
            appender.append("a-stats", publish(i), "").get();
        }
        assertThat(admin.stats("a-stats")).isEqualTo(new QueueAdmin.Stats(2, 3, 5));
    }

    @Test
    void delete_takes_every_key_of_the_session_and_a_late_append_does_not_bring_the_queue_back() throws Exception {
        admin.ensureAll(List.of("a-del", "a-del2"), Instant.now());
        appender.append("a-del", publish(0), "").get();
        reader.released("a-del", 1, 1).get();
        reader.recordInboundQos2("a-del", 5).get();
        admin.delete("a-del");
        admin.deleteAll(List.of("a-del2"));
        for (String client : List.of("a-del", "a-del2")) {
            assertThat(commands.exists(
                            SessionQueueKeys.queue(client),
                            SessionQueueKeys.meta(client),
                            SessionQueueKeys.released(client),
                            SessionQueueKeys.inboundQos2(client)))
                    .isZero();
            assertThat(appender.append(client, publish(1), "").get().status())
                    .isEqualTo(QueueAppender.Status.NO_SESSION);
        }
    }
}
