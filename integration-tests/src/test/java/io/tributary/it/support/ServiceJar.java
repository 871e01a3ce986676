package io.tributary.it.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A service jar as the tests launch it, with a dynamic class data sharing (AppCDS) archive: a run starts about 40
 * service JVMs that each load the same Spring Boot, Netty and Kafka client classes, and mapping them from an archive
 * instead of loading and verifying them again makes every start cheaper on the 2-core CI machine.
 *
 * <p>CDS only archives classes read from jar files on the class path, not from the jars nested in a Spring Boot
 * jar, so the jar is extracted once ({@code -Djarmode=tools extract}: the application jar with a manifest class path
 * to {@code lib/}), the layout Spring Boot documents for CDS. An archive is only valid for the class path and JDK it
 * was written with, so both name it: {@code target/cds/<jar>-<hash>.jsa}, the hash over the jar's path, size and
 * time and over java.home and the VM version. Whatever fails (no tools jar mode, no archive written) leaves the
 * service running from its own jar without an archive, as before; {@code -Xshare:auto} makes a JVM that finds the
 * archive unusable warn and run without it.
 */
final class ServiceJar {

    private static final Path ROOT = Path.of("target", "cds").toAbsolutePath();
    private static final ConcurrentMap<Path, ServiceJar> JARS = new ConcurrentHashMap<>();

    private final Path runJar;
    /** Null when the jar could not be extracted: no archive then. */
    private final Path archive;

    private ServiceJar(Path runJar, Path archive) {
        this.runJar = runJar;
        this.archive = archive;
    }

    /** Where the extracted jars and their archives are kept ({@code target/cds}). */
    static Path root() {
        return ROOT;
    }

    /** The launch form of {@code fatJar}, extracted at most once per test JVM. */
    static ServiceJar of(Path fatJar) {
        return JARS.computeIfAbsent(fatJar.toAbsolutePath(), ServiceJar::prepare);
    }

    private static ServiceJar prepare(Path fatJar) {
        String name = fatJar.getFileName().toString().replaceFirst("\\.jar$", "");
        if (!Boolean.parseBoolean(System.getProperty("tributary.it.cds", "true"))) {
            // -Dtributary.it.cds=false: the services run from their Spring Boot jars, as before, e.g. to compare.
            return new ServiceJar(fatJar, null);
        }
        try {
            String key = name + "-" + hash(fatJar);
            Path extracted = extract(fatJar, ROOT.resolve(key));
            return new ServiceJar(extracted, ROOT.resolve(key + ".jsa"));
        } catch (IOException | RuntimeException e) {
            System.out.println("[it-cds] " + name + " runs without a class data archive: " + e);
            return new ServiceJar(fatJar, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ServiceJar(fatJar, null);
        }
    }

    /** The jar to run: the extracted application jar, or the Spring Boot jar itself when extraction failed. */
    Path runJar() {
        return runJar;
    }

    /** The options that map the archive, none while there is none. */
    List<String> jvmOptions() {
        return hasArchive() ? List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:auto") : List.of();
    }

    boolean hasArchive() {
        return archive != null && Files.isRegularFile(archive);
    }

    /** Whether a recording run can give this jar an archive it does not have yet. */
    boolean canRecord() {
        return archive != null && !hasArchive();
    }

    /** A file of its own for one recording JVM to write its archive to at exit; see {@link #adopt}. */
    Path recordingFile() {
        return archive.resolveSibling(
                archive.getFileName() + "." + ProcessHandle.current().pid() + "-" + System.nanoTime() + ".tmp");
    }

    /**
     * Renames a complete recording to the archive: a JVM starting at the same time either sees no archive or the
     * whole of one, never a file still being written. Another recording that got there first is simply replaced.
     */
    boolean adopt(Path recording) throws IOException {
        if (!Files.isRegularFile(recording) || Files.size(recording) == 0) {
            Files.deleteIfExists(recording);
            return false;
        }
        Files.move(recording, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return true;
    }

    /** Extracts into a temporary directory renamed into place, so a half-extracted jar is never run. */
    private static Path extract(Path fatJar, Path dir) throws IOException, InterruptedException {
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(ROOT);
            Path partial = Files.createTempDirectory(ROOT, dir.getFileName() + ".extracting");
            Process extract = new ProcessBuilder(
                            io.tributary.devstack.process.JavaCommand.javaExecutable(),
                            "-Djarmode=tools",
                            "-jar",
                            fatJar.toString(),
                            "extract",
                            "--destination",
                            partial.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(
                            ROOT.resolve(dir.getFileName() + ".extract.log").toFile())
                    .start();
            if (!extract.waitFor(120, TimeUnit.SECONDS) || extract.exitValue() != 0) {
                extract.destroyForcibly();
                throw new IOException("jar extraction failed, see " + dir.getFileName() + ".extract.log");
            }
            try {
                Files.move(partial, dir, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                if (!Files.isDirectory(dir)) {
                    throw e;
                }
                // Another test JVM extracted the same jar first: use its copy.
            }
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".jar"))
                    .findFirst()
                    .orElseThrow(() -> new IOException("no application jar in " + dir));
        }
    }

    private static String hash(Path fatJar) throws IOException {
        String identity = fatJar + "|" + Files.size(fatJar) + "|"
                + Files.getLastModifiedTime(fatJar).toMillis() + "|" + System.getProperty("java.home") + "|"
                + System.getProperty("java.vm.version");
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
