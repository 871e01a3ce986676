package io.tributary.devstack.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real OS processes, killed with SIGKILL from outside as a crash (or the OOM killer) would. */
class ProcessSupervisorTest {

    @TempDir
    Path dir;

    private final List<String> console = new CopyOnWriteArrayList<>();
    private final AtomicBoolean stopping = new AtomicBoolean();
    private ManagedProcess process;

    @AfterEach
    void stopProcess() {
        if (process != null) {
            process.kill();
        }
    }

    @Test
    void aProcessKilledWithSigkillIsRestartedAfterTheBackoffAndTheConsoleSaysSo() throws Exception {
        process = sleeper("sleeper");
        process.start();
        ProcessSupervisor supervisor = supervisor(Duration.ofMillis(200), Duration.ofSeconds(5));
        supervisor.watch(process, process::start);
        long firstPid = process.pid().orElseThrow();

        assertThat(supervisor.checkOnce()).isZero();
        assertThat(console).isEmpty();

        ProcessHandle handle = ProcessHandle.of(firstPid).orElseThrow();
        handle.destroyForcibly();
        handle.onExit().get(10, TimeUnit.SECONDS);
        assertThat(supervisor.checkOnce()).as("not before the back-off").isZero();
        assertThat(process.isAlive()).isFalse();
        assertThat(String.join("\n", console))
                .contains("quickstart: sleeper exited unexpectedly (exit code 137); restarting in 0.2 s (restart 1)");

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (supervisor.checkOnce() == 0 && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(20);
        }
        assertThat(process.isAlive()).isTrue();
        assertThat(process.pid().orElseThrow()).isNotEqualTo(firstPid);
        assertThat(console)
                .anySatisfy(line -> assertThat(line)
                        .startsWith("quickstart: sleeper is back (pid "
                                + process.pid().orElseThrow()));
    }

    @Test
    void aProcessThatKeepsCrashingWaitsTwiceAsLongEachTimeUpToTheMaximum() throws Exception {
        process = ManagedProcess.builder("crasher", List.of("sh", "-c", "echo crashing; exit 3"))
                .logFile(dir.resolve("crasher.log"))
                .build();
        process.start();
        process.awaitLine(line -> line.contains("crashing"), Duration.ofSeconds(10));
        AtomicLong clock = new AtomicLong(1);
        ProcessSupervisor supervisor = new ProcessSupervisor(
                Duration.ofSeconds(1),
                Duration.ofSeconds(4),
                Duration.ofMinutes(5),
                console::add,
                stopping::get,
                clock::get);
        supervisor.watch(process, () -> {
            process.start();
            process.awaitLine(line -> line.contains("ready"), Duration.ofSeconds(10));
        });
        waitUntilDead();

        List<String> waits = new CopyOnWriteArrayList<>();
        for (int round = 0; round < 5; round++) {
            supervisor.checkOnce();
            waits.add(console.stream()
                    .filter(line -> line.contains("restarting in"))
                    .reduce((a, b) -> b)
                    .map(line -> line.replaceAll(".*restarting in ([0-9.]+ s).*", "$1"))
                    .orElse("none"));
            clock.addAndGet(TimeUnit.SECONDS.toNanos(10));
            supervisor.checkOnce();
        }

        assertThat(waits).containsExactly("1.0 s", "2.0 s", "4.0 s", "4.0 s", "4.0 s");
        assertThat(console)
                .anySatisfy(line -> assertThat(line)
                        .contains("crasher did not come back: crasher exited" + " with code 3 before it was ready"));
        assertThat(supervisor.consecutiveRestarts(process)).isGreaterThanOrEqualTo(5);
    }

    @Test
    void nothingIsRestartedWhileTheStackStops() throws Exception {
        process = sleeper("stopped");
        process.start();
        ProcessSupervisor supervisor = supervisor(Duration.ofMillis(1), Duration.ofMillis(1));
        supervisor.watch(process, process::start);

        stopping.set(true);
        process.stop(Duration.ofSeconds(5));
        TimeUnit.MILLISECONDS.sleep(20);
        supervisor.checkOnce();
        supervisor.checkOnce();

        assertThat(process.isAlive()).isFalse();
        assertThat(console).isEmpty();
    }

    private void waitUntilDead() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (process.isAlive() && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    private ManagedProcess sleeper(String name) {
        return ManagedProcess.builder(name, List.of("sleep", "300"))
                .logFile(dir.resolve(name + ".log"))
                .build();
    }

    private ProcessSupervisor supervisor(Duration first, Duration max) {
        return new ProcessSupervisor(first, max, Duration.ofMinutes(5), console::add, stopping::get);
    }
}
