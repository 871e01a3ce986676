package io.tributary.sessionqueue;

import static io.tributary.sessionqueue.QueueBytes.bytes;
import static io.tributary.sessionqueue.QueueBytes.publish;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.redis.ManagedRedisConnection;
import io.tributary.sessionqueue.QueueHold.HistoryEntry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The byte counter of a session queue does not drift (real Redis): after a long mix of every script that adds or
 * removes entries — appends by both policies, under the message limit and the byte budget, batches routed again,
 * fetches, acknowledgements, PUBRECs, replays with history, held entries and seam duplicates — it says what the
 * entries hold, and never more than the budget.
 */
class QueueBytesDriftTest {

    private static final long BUDGET = 200_000;
    private static final Duration MINUTE = Duration.ofMinutes(1);

    private static ManagedRedisConnection<byte[], byte[]> binary;
    private static QueueBytes queues;

    @BeforeAll
    static void connect() {
        binary = TestRedis.binary();
        queues = new QueueBytes(binary);
    }

    @AfterAll
    static void disconnect() {
        binary.close();
    }

    @Test
    void the_counter_is_the_sum_of_the_entries_after_a_mix_of_every_operation() throws Exception {
        for (long seed = 1; seed <= 4; seed++) {
            mix("d-mix-" + seed, new Random(seed));
        }
    }

    private static void mix(String client, Random random) throws Exception {
        queues.create(client);
        List<QueueAppender> appenders = List.of(
                new RedisQueueAppender(binary, 12, BUDGET, QueueFullPolicy.DROP_OLDEST),
                new RedisQueueAppender(binary, 12, BUDGET, QueueFullPolicy.DROP_NEWEST),
                new RedisQueueAppender(binary, 1000, BUDGET, QueueFullPolicy.DROP_OLDEST));
        RedisQueueReader reader = new RedisQueueReader(binary);
        QueueHold hold = new RedisQueueHold(binary);
        long[] next = new long[3];
        String token = null;
        for (int step = 0; step < 600; step++) {
            int op = random.nextInt(100);
            int partition = random.nextInt(3);
            if (op < 45) {
                List<QueueAppender.Message> batch = new ArrayList<>();
                for (int n = 1 + random.nextInt(3); n > 0; n--) {
                    batch.add(message(partition, next[partition]++, size(random)));
                }
                appenders
                        .get(random.nextInt(3))
                        .appendAll(client, partition, batch)
                        .get();
            } else if (op < 50 && next[partition] > 0) {
                // A batch routed again: nothing appended, nothing counted.
                long offset = random.nextInt((int) next[partition]);
                appenders
                        .get(0)
                        .appendAll(client, partition, List.of(message(partition, offset, 100)))
                        .get();
            } else if (op < 60) {
                reader.fetch(client, 1, 1 + random.nextInt(5)).get();
            } else if (op < 75) {
                reader.removeAll(client, seqs(client, random)).get();
            } else if (op < 82) {
                reader.remove(client, 1 + random.nextInt((int) Math.max(1, lastSeq(client))))
                        .get();
            } else if (op < 88) {
                reader.released(client, 1 + random.nextInt((int) Math.max(1, lastSeq(client))), 7)
                        .get();
            } else if (token == null) {
                token = "r" + step;
                hold.hold(client, token, MINUTE).get();
                // History: partly positions the queue holds (they move), partly new ones.
                List<HistoryEntry> history = new ArrayList<>();
                for (int n = random.nextInt(4); n > 0; n--) {
                    long offset = next[partition] == 0 ? 0 : random.nextInt((int) next[partition] + 2);
                    history.add(new HistoryEntry(
                            partition,
                            offset,
                            bytes("a/b"),
                            new byte[size(random)],
                            EntryHeaders.encode(new RecordHeaders())));
                }
                hold.appendHistory(client, token, history).get();
            } else {
                // Held entries below these end offsets on a/b are the history's: dropped at the release.
                hold.release(client, token, MINUTE, List.of("a/#"), Map.of(partition, next[partition] / 2 + 1))
                        .get();
                token = null;
            }
            // No counter until the first routed append creates one (from the entries there, a replay's history).
            Long counter = queues.counter(client);
            if (counter != null) {
                assertThat(counter).as("step %d of %s", step, client).isEqualTo(queues.held(client));
            }
        }
        if (token != null) {
            hold.release(client, token, MINUTE).get();
        }
        assertThat(queues.counter(client)).isEqualTo(queues.held(client)).isNotNegative();
        assertThat(queues.dropped(client))
                .as("the mix drove the queue past its limits")
                .isPositive();
        reader.removeAll(client, allSeqs(client)).get();
        assertThat(queues.length(client)).isZero();
        assertThat(queues.counter(client))
                .as("all removed: nothing left counted")
                .isZero();
    }

    /** Mostly small messages, some large enough that a handful fill the budget. */
    private static int size(Random random) {
        return random.nextInt(10) < 7 ? random.nextInt(2_000) : 20_000 + random.nextInt(60_000);
    }

    private static QueueAppender.Message message(int partition, long offset, int size) {
        var record = publish(partition, offset, size);
        return new QueueAppender.Message(record, EntryHeaders.encode(record.headers()), "");
    }

    private static long lastSeq(String client) {
        byte[] seq = queues.commands().hget(bytes(SessionQueueKeys.meta(client)), bytes(SessionQueueKeys.SEQ));
        return seq == null ? 0 : Long.parseLong(new String(seq, java.nio.charset.StandardCharsets.UTF_8));
    }

    /** Some sequences: mostly in the queue, some removed already or never there. */
    private static List<Long> seqs(String client, Random random) {
        List<Long> seqs = new ArrayList<>();
        long last = Math.max(1, lastSeq(client));
        for (int n = 1 + random.nextInt(4); n > 0; n--) {
            seqs.add(1 + (long) random.nextInt((int) last + 1));
        }
        return seqs;
    }

    private static List<Long> allSeqs(String client) {
        return queues
                .commands()
                .xrange(bytes(SessionQueueKeys.queue(client)), io.lettuce.core.Range.create("-", "+"))
                .stream()
                .map(m -> SessionQueueKeys.seqOf(m.getId()))
                .toList();
    }
}
