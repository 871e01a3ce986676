package io.tributary.it.support;

import io.tributary.devstack.net.Ports;
import io.tributary.devstack.process.ServiceProcess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Writes the class data archive of each service jar ({@link ServiceJar}) once, before the first cluster of a test
 * JVM starts its services, so every service start of the run maps it. One recording JVM per jar, all three at
 * once, each on the cluster's engines: it runs the service up to a refreshed application context (Spring's
 * {@code -Dspring.context.exit=onRefresh}, made for such training runs: every bean created, nothing started) and
 * writes the classes it loaded at exit ({@code -XX:ArchiveClassesAtExit}). A recording that fails leaves that
 * service without an archive, nothing else.
 */
final class ArchiveRecording {

    private static final long RECORDING_TIMEOUT_SECONDS = 180;
    private static boolean done;

    private ArchiveRecording() {}

    /**
     * Records the archives missing for the three service jars, once per test JVM. Test JVMs side by side take turns
     * (a file lock): the first records, the next finds the archives written and records nothing.
     */
    static synchronized void once(ServiceLauncher launcher) throws InterruptedException {
        if (done) {
            return;
        }
        done = true;
        Path lockFile = ServiceJar.root().resolve("recording.lock");
        try {
            java.nio.file.Files.createDirectories(lockFile.getParent());
            try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(
                            lockFile, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE);
                    java.nio.channels.FileLock lock = channel.lock()) {
                record(launcher);
            }
        } catch (java.io.IOException e) {
            System.out.println("[it-cds] no recording: " + e);
        }
    }

    private static void record(ServiceLauncher launcher) throws InterruptedException {
        long t0 = System.nanoTime();
        // The node's session-service is never called before the context is refreshed: any closed port will do.
        Map<String, Supplier<ServiceProcess.Builder>> services = Map.of(
                "tributary.jars.session",
                () -> launcher.session("cds-session", SessionPorts.free()),
                "tributary.jars.routing",
                () -> launcher.service("cds-routing", "tributary.jars.routing")
                        .env("MANAGEMENT_PORT", Ports.freePort()),
                "tributary.jars.transport",
                () -> launcher.transport(
                        "cds-transport", Ports.freePort(), Ports.freePort(), "http://127.0.0.1:" + Ports.freePort()));
        // Extracting a jar takes a JVM of its own for a few seconds: the three at once, each recording starting as
        // soon as its jar is ready.
        ExecutorService executor = Executors.newFixedThreadPool(services.size());
        List<Recording> recordings = new ArrayList<>();
        try {
            List<Future<Recording>> starting = new ArrayList<>();
            services.forEach((jarProperty, builder) -> starting.add(executor.submit(() -> {
                ServiceJar jar = launcher.serviceJar(jarProperty);
                return jar.canRecord() ? Recording.start(jar, builder.get()) : null;
            })));
            for (Future<Recording> recording : starting) {
                try {
                    if (recording.get() != null) {
                        recordings.add(recording.get());
                    }
                } catch (ExecutionException e) {
                    System.out.println("[it-cds] no recording: " + e.getCause());
                }
            }
        } finally {
            executor.shutdown();
        }
        int written = 0;
        for (Recording recording : recordings) {
            written += recording.finish() ? 1 : 0;
        }
        if (!recordings.isEmpty()) {
            System.out.printf(
                    "[it-cds] %d of %d class data archives written in %.1f s%n",
                    written, recordings.size(), (System.nanoTime() - t0) / 1e9);
        }
    }

    /** One recording JVM; {@code process} is null when it could not even start. */
    private record Recording(ServiceJar jar, ServiceProcess process, Path file) {

        static Recording start(ServiceJar jar, ServiceProcess.Builder builder) {
            Path file = jar.recordingFile();
            ServiceProcess process = builder.jvmOption("-XX:ArchiveClassesAtExit=" + file)
                    .jvmOption("-Dspring.context.exit=onRefresh")
                    .build();
            try {
                process.start();
                return new Recording(jar, process, file);
            } catch (Exception e) {
                System.out.println("[it-cds] " + process.name() + " did not start: " + e);
                return new Recording(jar, null, file);
            }
        }

        /** Waits for the JVM to exit and adopts its archive if it exited normally. */
        boolean finish() throws InterruptedException {
            if (process == null) {
                return false;
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(RECORDING_TIMEOUT_SECONDS);
            while (process.isAlive() && System.nanoTime() < deadline) {
                TimeUnit.MILLISECONDS.sleep(100);
            }
            process.stop();
            long exit = process.exitCode().orElse(-1);
            try {
                if (exit == 0 && jar.adopt(file)) {
                    return true;
                }
                java.nio.file.Files.deleteIfExists(file);
            } catch (java.io.IOException e) {
                System.out.println("[it-cds] " + process.name() + ": " + e);
            }
            System.out.println("[it-cds] " + process.name() + " wrote no archive (exit " + exit + "), see "
                    + process.logFile() + process.tail(20));
            return false;
        }
    }
}
