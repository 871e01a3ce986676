package io.tributary.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * On a two-core machine (or a pod limited to two cores) the transport's asynchronous steps must run on the common
 * pool, not on a new thread each (what CompletableFuture does when the pool's parallelism is 1). Checked in a JVM of
 * its own that sees two processors, since the pool is sized once per JVM.
 */
class CommonPoolParallelismTest {

    @Test
    void async_steps_run_on_the_common_pool_of_a_two_core_jvm() throws Exception {
        assertThat(runProbe("-XX:ActiveProcessorCount=2")).startsWith("ForkJoinPool.commonPool-worker-");
    }

    @Test
    void an_explicit_parallelism_is_kept() throws Exception {
        assertThat(runProbe(
                        "-XX:ActiveProcessorCount=2",
                        "-D" + TransportServiceApplication.COMMON_POOL_PARALLELISM + "=3"))
                .contains("parallelism 3");
    }

    private static String runProbe(String... jvmOptions) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Probe.class.getName()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(output).isZero();
        return output.lines()
                .filter(l -> l.startsWith("probe: "))
                .findFirst()
                .orElseThrow()
                .substring("probe: ".length());
    }

    /** Sets the pool up as the application's main does, then reports where an async step ran. */
    public static final class Probe {
        public static void main(String[] args) throws Exception {
            TransportServiceApplication.atLeastTwoCommonPoolThreads();
            String thread = CompletableFuture.supplyAsync(
                            () -> Thread.currentThread().getName())
                    .get();
            System.out.println("probe: " + thread + " parallelism "
                    + java.util.concurrent.ForkJoinPool.getCommonPoolParallelism());
        }
    }
}
