package io.tributary.sessionqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.codec.ByteArrayCodec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.redis.ManagedRedisConnection;
import io.tributary.redis.RedisClientFactory;
import io.tributary.redis.RedisSettings;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The transport node's side of a queue against a real Redis: fetch and DUP, acknowledgements, QoS 2 ids. */
class QueueReaderTest {

    private static ManagedRedisConnection<byte[], byte[]> binary;
    private static ManagedRedisConnection<String, String> text;
    private static RedisQueueReader reader;
    private static QueueAppender appender;
    private static QueueAdmin admin;

    @BeforeAll
    static void connect() {
        binary = TestRedis.binary();
        text = TestRedis.text();
        reader = new RedisQueueReader(binary);
        appender = new RedisQueueAppender(binary, 100, 1L << 30, QueueFullPolicy.DROP_OLDEST);
        admin = new RedisQueueAdmin(text);
    }

    @AfterAll
    static void disconnect() {
        binary.close();
        text.close();
    }

    private static ConsumerRecord<byte[], byte[]> publish(long offset, String payload) {
        ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>(
                "tributary.publish",
                0,
                offset,
                "a/b".getBytes(StandardCharsets.UTF_8),
                payload.getBytes(StandardCharsets.UTF_8));
        record.headers().add(new RecordHeader(RecordHeaders.QOS, "1".getBytes(StandardCharsets.UTF_8)));
        return record;
    }

    private static void queue(String clientId, int messages) throws Exception {
        admin.ensureAll(List.of(clientId), Instant.parse("2026-01-01T00:00:00Z"));
        for (int i = 0; i < messages; i++) {
            appender.append(clientId, publish(i, "m" + i), "").get();
        }
    }

    private static List<Long> seqs(QueueReader.Fetched fetched) {
        return fetched.entries().stream().map(QueueReader.Entry::seq).toList();
    }

    @Test
    void fetches_in_order_from_a_sequence_and_remembers_what_may_have_been_sent() throws Exception {
        queue("r-fetch", 4);
        QueueReader.Fetched first = reader.fetch("r-fetch", 1, 2).get();
        assertThat(first.sentBefore()).isZero();
        assertThat(seqs(first)).containsExactly(1L, 2L);
        QueueReader.Entry entry = first.entries().get(0);
        assertThat(entry.text(SessionQueueKeys.FIELD_TOPIC)).isEqualTo("a/b");
        assertThat(entry.text(SessionQueueKeys.FIELD_PAYLOAD)).isEqualTo("m0");
        assertThat(RecordHeaders.readQos(EntryHeaders.decode(entry.fields().get(SessionQueueKeys.FIELD_HEADERS))))
                .isEqualTo(1);
        assertThat(entry.text(SessionQueueKeys.FIELD_SHARED)).isNull();

        // The client reconnects before acknowledging: the next reader starts over and learns 1..2 may be duplicates.
        QueueReader.Fetched again = reader.fetch("r-fetch", 1, 10).get();
        assertThat(again.sentBefore()).isEqualTo(2);
        assertThat(seqs(again)).containsExactly(1L, 2L, 3L, 4L);
        assertThat(reader.fetch("r-fetch", 5, 10).get().entries()).isEmpty();
    }

    @Test
    void acknowledged_messages_leave_the_queue() throws Exception {
        queue("r-ack", 4);
        assertThat(reader.remove("r-ack", 1).get()).isEqualTo(1);
        assertThat(reader.removeAll("r-ack", List.of(2L, 4L)).get()).isEqualTo(2);
        assertThat(seqs(reader.fetch("r-ack", 1, 10).get())).containsExactly(3L);
        assertThat(admin.stats("r-ack")).isEqualTo(new QueueAdmin.Stats(1, 0, 4));
    }

    @Test
    void a_qos2_message_acknowledged_with_pubrec_leaves_the_queue_and_its_id_awaits_pubcomp() throws Exception {
        queue("r-qos2", 2);
        reader.released("r-qos2", 1, SessionQueueKeys.packetIdOf(1)).get();
        assertThat(seqs(reader.fetch("r-qos2", 1, 10).get())).containsExactly(2L);
        assertThat(reader.releasedPacketIds("r-qos2").get()).containsExactly(1);
        assertThat(reader.completed("r-qos2", 1).get()).isEqualTo(1);
        assertThat(reader.releasedPacketIds("r-qos2").get()).isEmpty();
    }

    @Test
    void inbound_qos2_ids_are_kept_only_while_the_session_has_its_queue() throws Exception {
        assertThat(reader.recordInboundQos2("r-in", 7).get()).as("no session").isFalse();
        assertThat(reader.sessionIncarnation("r-in").get()).isNull();
        assertThat(reader.inboundQos2Ids("r-in").get()).isEmpty();

        queue("r-in", 0);
        assertThat(reader.sessionIncarnation("r-in").get()).isEqualTo("2026-01-01T00:00:00Z");
        assertThat(reader.recordInboundQos2("r-in", 9).get()).isTrue();
        assertThat(reader.recordInboundQos2("r-in", 7).get()).isTrue();
        assertThat(reader.inboundQos2Ids("r-in").get()).containsExactly(7, 9);
        assertThat(reader.releaseInboundQos2("r-in", 9).get()).isEqualTo(1);
        assertThat(reader.inboundQos2Ids("r-in").get()).containsExactly(7);

        admin.delete("r-in");
        assertThat(reader.inboundQos2Ids("r-in").get())
                .as("deleted with the session")
                .isEmpty();
        assertThat(reader.recordInboundQos2("r-in", 7).get()).isFalse();
    }

    @Test
    void scripts_flushed_from_redis_are_sent_again() throws Exception {
        queue("r-flush", 1);
        text.connection().sync().scriptFlush();
        assertThat(seqs(reader.fetch("r-flush", 1, 10).get())).containsExactly(1L);
        text.connection().sync().scriptFlush();
        reader.released("r-flush", 1, 1).get();
        assertThat(reader.releasedPacketIds("r-flush").get()).containsExactly(1);
    }

    @Test
    void without_redis_every_call_fails_its_future_at_once_and_never_throws() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        try (ManagedRedisConnection<byte[], byte[]> down = RedisClientFactory.open(
                RedisSettings.of("redis://127.0.0.1:" + port, Duration.ofSeconds(1), "down"),
                ByteArrayCodec.INSTANCE,
                new SimpleMeterRegistry())) {
            RedisQueueReader downReader = new RedisQueueReader(down);
            assertThatThrownBy(() -> downReader.fetch("x", 1, 10).get())
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(RedisConnectionException.class);
            assertThatThrownBy(() -> downReader.recordInboundQos2("x", 1).get())
                    .hasCauseInstanceOf(RedisConnectionException.class);
            assertThatThrownBy(() -> new RedisQueueAppender(down, 10, 1L << 30, QueueFullPolicy.DROP_OLDEST)
                            .append("x", publish(0, "m"), "")
                            .get())
                    .hasCauseInstanceOf(RedisConnectionException.class);
        }
    }
}
