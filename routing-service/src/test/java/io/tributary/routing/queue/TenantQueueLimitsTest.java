package io.tributary.routing.queue;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.lettuce.core.codec.ByteArrayCodec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.session.LimitsApi;
import io.tributary.common.session.SessionApi;
import io.tributary.devstack.redis.EmbeddedRedisServer;
import io.tributary.redis.ManagedRedisConnection;
import io.tributary.redis.RedisClientFactory;
import io.tributary.redis.RedisSettings;
import io.tributary.sessionqueue.EntryHeaders;
import io.tributary.sessionqueue.QueueAppender;
import io.tributary.sessionqueue.QueueFullPolicy;
import io.tributary.sessionqueue.RedisQueueAppender;
import io.tributary.sessionqueue.SessionQueueKeys;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * A tenant's queued-message quota on a real Redis: its sessions' queues hold at most the lower of its quota and the
 * global limit, other tenants' and global sessions' the global limit; the quota list comes from session-service's
 * internal API (here a real HTTP server answering as it does), with the internal token.
 */
class TenantQueueLimitsTest {

    private static EmbeddedRedisServer redis;
    private static ManagedRedisConnection<byte[], byte[]> connection;

    @BeforeAll
    static void start() throws Exception {
        redis = EmbeddedRedisServer.start(Files.createTempDirectory("tenant-queue-redis"));
        connection = RedisClientFactory.open(
                RedisSettings.of(redis.url(), Duration.ofSeconds(2), "test"),
                ByteArrayCodec.INSTANCE,
                new SimpleMeterRegistry());
    }

    @AfterAll
    static void stop() {
        connection.close();
        redis.close();
    }

    private static QueueAppender.Message message(String topic, long offset) {
        ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>(
                "tributary.publish",
                0,
                offset,
                topic.getBytes(StandardCharsets.UTF_8),
                ("m" + offset).getBytes(StandardCharsets.UTF_8));
        record.headers().add(new RecordHeader(RecordHeaders.QOS, new byte[] {1}));
        return new QueueAppender.Message(record, EntryHeaders.encode(record.headers()), "");
    }

    /** Appends six messages on {@code topic}, one call each, to a new queue of {@code client}; its length after. */
    private static long fill(QueueAppender appender, String client, String topic) throws Exception {
        connection
                .connection()
                .sync()
                .hset(bytes(SessionQueueKeys.meta(client)), bytes(SessionQueueKeys.CREATED), bytes("now"));
        for (int i = 0; i < 6; i++) {
            appender.appendAll(client, 0, List.of(message(topic, i))).get();
        }
        return connection.connection().sync().xlen(bytes(SessionQueueKeys.queue(client)));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void a_tenants_sessions_queue_at_most_its_quota_others_the_global_limit() throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        TenantQueueLimits limits = new TenantQueueLimits(
                new RedisQueueAppender(connection, 4, 1L << 30, QueueFullPolicy.DROP_OLDEST), 4, meters);
        limits.update(List.of(
                new LimitsApi.TenantPublishQuota("small", null, null, false, 2),
                new LimitsApi.TenantPublishQuota("large", null, null, false, 100),
                new LimitsApi.TenantPublishQuota("rated", 10, null, false, null)));
        assertThat(limits.tenants()).isEqualTo(2);
        assertThat(meters.find("tributary.routing.tenant.queue.quota")
                        .tag("tenant", "small")
                        .gauge()
                        .value())
                .as("the quota applied, visible per tenant")
                .isEqualTo(2);
        assertThat(fill(limits, "q-small", "$tenant/small/a")).isEqualTo(2);
        assertThat(fill(limits, "q-large", "$tenant/large/a"))
                .as("the global limit is lower")
                .isEqualTo(4);
        assertThat(fill(limits, "q-rated", "$tenant/rated/a")).isEqualTo(4);
        assertThat(fill(limits, "q-global", "a")).isEqualTo(4);
        assertThat(fill(limits, "q-sys", "$SYS/broker/uptime")).isEqualTo(4);
        assertThat(quotaDrops(meters, "small"))
                .as("six appended to a queue of two: four dropped for the tenant's quota")
                .isEqualTo(4);
        assertThat(quotaDrops(meters, "large"))
                .as("dropped at the global limit, not the tenant's quota")
                .isZero();

        limits.update(List.of());
        assertThat(meters.find("tributary.routing.tenant.queue.quota").gauges())
                .as("a removed quota leaves the gauge")
                .isEmpty();
        assertThat(fill(limits, "q-small-2", "$tenant/small/a"))
                .as("quota removed")
                .isEqualTo(4);
        assertThat(quotaDrops(meters, "small")).isEqualTo(4);
    }

    @Test
    void the_newest_refused_at_a_tenants_quota_is_counted_for_it() throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        TenantQueueLimits limits = new TenantQueueLimits(
                new RedisQueueAppender(connection, 10, 1L << 30, QueueFullPolicy.DROP_NEWEST), 10, meters);
        limits.update(List.of(new LimitsApi.TenantPublishQuota("newest", null, null, false, 3)));
        assertThat(fill(limits, "q-newest", "$tenant/newest/a")).isEqualTo(3);
        assertThat(quotaDrops(meters, "newest")).isEqualTo(3);
    }

    @Test
    void drops_by_the_byte_budget_in_a_tenants_queue_are_not_its_quotas() throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        // About 50 bytes an entry here: two fit in the budget, fewer than the tenant's quota of 5.
        TenantQueueLimits limits = new TenantQueueLimits(
                new RedisQueueAppender(connection, 10, 120, QueueFullPolicy.DROP_OLDEST), 10, meters);
        limits.update(List.of(new LimitsApi.TenantPublishQuota("bytes", null, null, false, 5)));
        assertThat(fill(limits, "q-bytes", "$tenant/bytes/a")).isEqualTo(2);
        assertThat(quotaDrops(meters, "bytes")).isZero();
    }

    private static double quotaDrops(SimpleMeterRegistry meters, String tenant) {
        var counter = meters.find("tributary.tenant.quota.refusals")
                .tag("tenant", tenant)
                .tag("quota", TenantQueueLimits.QUEUED_MESSAGES)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void the_poller_fetches_the_list_with_the_internal_token() throws Exception {
        AtomicReference<String> token = new AtomicReference<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        byte[] body = JsonMapper.builder()
                .build()
                .writeValueAsBytes(new LimitsApi.TenantPublishQuotas(
                        List.of(new LimitsApi.TenantPublishQuota("small", null, null, false, 3))));
        server.createContext(SessionApi.TENANT_PUBLISH_QUOTAS, exchange -> {
            token.set(exchange.getRequestHeaders().getFirst(SessionApi.TOKEN_HEADER));
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            TenantQueueLimits limits = new TenantQueueLimits(
                    new RedisQueueAppender(connection, 10, 1L << 30, QueueFullPolicy.DROP_OLDEST),
                    10,
                    new SimpleMeterRegistry());
            TenantQueuePoller poller = new TenantQueuePoller(
                    new TenantQueueProperties(
                            "http://127.0.0.1:" + server.getAddress().getPort() + "/",
                            "routing-test-token-0123456789",
                            Duration.ofSeconds(5)),
                    limits,
                    JsonMapper.builder().build());
            poller.poll();
            assertThat(token.get()).isEqualTo("routing-test-token-0123456789");
            assertThat(limits.tenants()).isEqualTo(1);
            assertThat(fill(limits, "q-polled", "$tenant/small/x")).isEqualTo(3);
        } finally {
            server.stop(0);
        }
    }
}
