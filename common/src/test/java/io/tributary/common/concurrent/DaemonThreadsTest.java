package io.tributary.common.concurrent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DaemonThreadsTest {

    @Test
    void schedulerRunsItsWorkOnOneNamedDaemonThread() throws Exception {
        ScheduledExecutorService scheduler = DaemonThreads.scheduler("tick");
        try {
            CompletableFuture<Thread> first = new CompletableFuture<>();
            CompletableFuture<Thread> second = new CompletableFuture<>();
            scheduler.schedule(() -> first.complete(Thread.currentThread()), 1, TimeUnit.MILLISECONDS);
            scheduler.execute(() -> second.complete(Thread.currentThread()));
            Thread thread = first.get(5, TimeUnit.SECONDS);
            assertThat(thread.getName()).isEqualTo("tick");
            assertThat(thread.isDaemon()).isTrue();
            assertThat(second.get(5, TimeUnit.SECONDS)).isSameAs(thread);
        } finally {
            scheduler.shutdownNow();
        }
    }

    @Test
    void numberedThreadsCountFromOneAndAreDaemons() {
        ThreadFactory factory = DaemonThreads.numbered("replay-");
        Thread one = factory.newThread(() -> {});
        Thread two = factory.newThread(() -> {});
        assertThat(one.getName()).isEqualTo("replay-1");
        assertThat(two.getName()).isEqualTo("replay-2");
        assertThat(one.isDaemon()).isTrue();
        assertThat(two.isDaemon()).isTrue();
        // Each factory counts on its own: a second pool's threads do not continue the first one's numbers.
        assertThat(DaemonThreads.numbered("replay-").newThread(() -> {}).getName())
                .isEqualTo("replay-1");
    }
}
