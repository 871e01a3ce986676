package io.tributary.transport.metering;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.metering.UsageDelta;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TenantMetersTest {

    private static final Instant HOUR = Instant.parse("2026-11-26T13:00:00Z");

    private final AtomicLong clock = new AtomicLong(HOUR.toEpochMilli());
    private final TenantMeters meters = new TenantMeters("node-1", 42, clock::get);

    @Test
    void messages_and_payload_bytes_in_and_out_per_tenant() {
        TenantMeter acme = meters.meter("acme");
        TenantMeter globex = meters.meter("globex");
        acme.in(10);
        acme.in(5);
        acme.out(3, 300);
        globex.out(1, 7);

        List<UsageDelta> deltas = meters.take(HOUR);

        assertThat(deltas)
                .extracting(
                        UsageDelta::tenant,
                        UsageDelta::messagesIn,
                        UsageDelta::bytesIn,
                        UsageDelta::messagesOut,
                        UsageDelta::bytesOut)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("acme", 2L, 15L, 3L, 300L),
                        org.assertj.core.groups.Tuple.tuple("globex", 0L, 0L, 1L, 7L));
        assertThat(deltas).allSatisfy(d -> {
            assertThat(d.node()).isEqualTo("node-1");
            assertThat(d.incarnation()).isEqualTo(42);
            assertThat(d.hour()).isEqualTo(HOUR);
        });
    }

    @Test
    void a_take_starts_the_next_interval_and_idle_tenants_send_nothing() {
        meters.meter("acme").in(10);
        assertThat(meters.take(HOUR)).hasSize(1);

        assertThat(meters.take(HOUR)).isEmpty();

        meters.meter("acme").in(1);
        assertThat(meters.take(HOUR)).singleElement().satisfies(d -> {
            assertThat(d.messagesIn()).isEqualTo(1);
            assertThat(d.bytesIn()).isEqualTo(1);
        });
    }

    @Test
    void deltas_are_numbered_from_one_across_tenants_and_takes() {
        meters.meter("acme").in(1);
        meters.meter("globex").in(1);
        List<UsageDelta> first = meters.take(HOUR);
        meters.meter("acme").in(1);
        List<UsageDelta> second = meters.take(HOUR);

        assertThat(first).extracting(UsageDelta::sequence).containsExactlyInAnyOrder(1L, 2L);
        assertThat(second).extracting(UsageDelta::sequence).containsExactly(3L);
    }

    @Test
    void connection_time_is_connected_clients_times_time_split_at_each_take() {
        TenantMeter acme = meters.connected("acme");
        clock.addAndGet(1_000);
        meters.connected("acme");
        clock.addAndGet(2_000);
        // 1 client for 1 s, then 2 clients for 2 s
        assertThat(meters.take(HOUR))
                .singleElement()
                .extracting(UsageDelta::connectionMillis)
                .isEqualTo(5_000L);

        clock.addAndGet(500);
        acme.disconnected();
        clock.addAndGet(1_500);
        // 2 clients for 0.5 s, then 1 for 1.5 s
        assertThat(meters.take(HOUR))
                .singleElement()
                .extracting(UsageDelta::connectionMillis)
                .isEqualTo(2_500L);

        acme.disconnected();
        clock.addAndGet(10_000);
        assertThat(meters.take(HOUR)).isEmpty();
        assertThat(acme.connectedClients()).isZero();
    }

    @Test
    void clients_without_a_tenant_are_not_metered() {
        TenantMeter none = meters.connected(null);
        none.in(100);
        none.out(1, 100);
        clock.addAndGet(60_000);
        none.disconnected();

        assertThat(none).isSameAs(TenantMeter.NONE);
        assertThat(meters.take(HOUR)).isEmpty();
    }

    @Test
    void counts_given_back_leave_with_the_next_take() {
        meters.meter("acme").in(10);
        UsageDelta refused = meters.take(HOUR).get(0);
        meters.giveBack(refused);
        meters.meter("acme").in(5);

        assertThat(meters.take(HOUR)).singleElement().satisfies(d -> {
            assertThat(d.messagesIn()).isEqualTo(2);
            assertThat(d.bytesIn()).isEqualTo(15);
            assertThat(d.sequence()).isEqualTo(2);
        });
    }

    @Test
    void counting_from_many_threads_while_taking_loses_and_doubles_nothing() throws Exception {
        TenantMeter acme = meters.meter("acme");
        int threads = 4;
        int perThread = 100_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long[] taken = new long[2];
        try {
            for (int t = 0; t < threads; t++) {
                pool.execute(() -> {
                    for (int i = 0; i < perThread; i++) {
                        acme.in(3);
                    }
                });
            }
            pool.shutdown();
            while (!pool.awaitTermination(1, TimeUnit.MILLISECONDS)) {
                for (UsageDelta d : meters.take(HOUR)) {
                    taken[0] += d.messagesIn();
                    taken[1] += d.bytesIn();
                }
            }
        } finally {
            pool.shutdownNow();
        }
        for (UsageDelta d : meters.take(HOUR)) {
            taken[0] += d.messagesIn();
            taken[1] += d.bytesIn();
        }

        assertThat(taken[0]).isEqualTo((long) threads * perThread);
        assertThat(taken[1]).isEqualTo(3L * threads * perThread);
    }
}
