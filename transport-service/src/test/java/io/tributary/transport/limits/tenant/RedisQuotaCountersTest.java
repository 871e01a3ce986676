package io.tributary.transport.limits.tenant;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.codec.ByteArrayCodec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.devstack.redis.EmbeddedRedisServer;
import io.tributary.redis.ManagedRedisConnection;
import io.tributary.redis.RedisClientFactory;
import io.tributary.redis.RedisSettings;
import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The cluster-wide counter (take.lua) on a real Redis: what two nodes take from one tenant's window adds up to the
 * quota at most, credit is recorded even beyond it, tenants and quotas count apart, and a window ends within a
 * second.
 */
class RedisQuotaCountersTest {

    private static EmbeddedRedisServer server;
    private static ManagedRedisConnection<byte[], byte[]> redis;
    private static RedisQuotaCounters counters;

    @BeforeAll
    static void redis() throws Exception {
        server = EmbeddedRedisServer.start(Files.createTempDirectory("quota-redis"));
        redis = RedisClientFactory.open(
                RedisSettings.of(server.url(), Duration.ofSeconds(2), "quota-test"),
                ByteArrayCodec.INSTANCE,
                new SimpleMeterRegistry());
        counters = new RedisQuotaCounters(redis);
    }

    @AfterAll
    static void stop() {
        redis.close();
        server.close();
    }

    private static QuotaLease.Grant take(QuotaLease.QuotaCounter counter, long limit, long want, long owed)
            throws Exception {
        return counter.take(limit, want, owed).get(5, TimeUnit.SECONDS);
    }

    /** Waits for the start of a window of Redis's clock, so the calls after it fall in one window. */
    private static void freshWindow(QuotaLease.QuotaCounter probe) throws Exception {
        QuotaLease.Grant g = take(probe, 1, 0, 0);
        if (g.windowLeftNanos() < TimeUnit.MILLISECONDS.toNanos(700)) {
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(g.windowLeftNanos()) + 5);
        }
    }

    @Test
    void two_nodes_together_get_the_quota_of_a_window_and_no_more() throws Exception {
        QuotaLease.QuotaCounter node1 = counters.counter("acme", TenantPublishQuotas.PUBLISH_RATE);
        QuotaLease.QuotaCounter node2 = counters.counter("acme", TenantPublishQuotas.PUBLISH_RATE);
        freshWindow(counters.counter("probe", TenantPublishQuotas.PUBLISH_RATE));
        QuotaLease.Grant a = take(node1, 25, 10, 0);
        QuotaLease.Grant b = take(node2, 25, 10, 0);
        QuotaLease.Grant c = take(node1, 25, 10, 0);
        QuotaLease.Grant d = take(node2, 25, 10, 0);
        assertThat(a.granted()).isEqualTo(10);
        assertThat(b.granted()).isEqualTo(10);
        assertThat(c.granted()).as("the 5 left").isEqualTo(5);
        assertThat(d.granted()).isZero();
        assertThat(a.windowLeftNanos()).isPositive().isLessThanOrEqualTo(TimeUnit.SECONDS.toNanos(1));

        QuotaLease.Grant other = take(counters.counter("other", TenantPublishQuotas.PUBLISH_RATE), 25, 10, 0);
        QuotaLease.Grant bytes = take(counters.counter("acme", TenantPublishQuotas.PUBLISH_BYTES), 25, 10, 0);
        assertThat(other.granted()).as("another tenant counts apart").isEqualTo(10);
        assertThat(bytes.granted()).as("another quota counts apart").isEqualTo(10);
    }

    @Test
    void credit_is_recorded_even_beyond_the_quota_and_leaves_nothing_to_grant() throws Exception {
        QuotaLease.QuotaCounter node = counters.counter("credit-co", TenantPublishQuotas.PUBLISH_BYTES);
        freshWindow(node);
        assertThat(take(node, 100, 50, 120).granted()).isZero();
        assertThat(take(node, 100, 50, 0).granted()).as("120 of 100 used").isZero();
    }

    @Test
    void the_next_window_starts_from_zero() throws Exception {
        QuotaLease.QuotaCounter node = counters.counter("windows-co", TenantPublishQuotas.PUBLISH_RATE);
        freshWindow(node);
        QuotaLease.Grant first = take(node, 5, 5, 0);
        assertThat(first.granted()).isEqualTo(5);
        assertThat(take(node, 5, 5, 0).granted()).isZero();
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(first.windowLeftNanos()) + 5);
        assertThat(take(node, 5, 5, 0).granted()).isEqualTo(5);
    }
}
