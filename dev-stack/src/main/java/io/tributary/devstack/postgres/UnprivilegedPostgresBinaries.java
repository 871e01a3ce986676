package io.tributary.devstack.postgres;

import io.tributary.devstack.process.Executables;
import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import io.zonky.test.db.postgres.util.LinuxUtils;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZInputStream;
import org.tukaani.xz.XZOutputStream;

/**
 * Lets zonky's embedded PostgreSQL start as root where user namespaces are blocked (e.g. Docker's default seccomp
 * profile). initdb, pg_ctl and postgres refuse an effective uid of 0. zonky 2.1 handles root itself by prefixing
 * its commands with {@code unshare -U} (a user namespace without mappings, where the process is uid 65534 but
 * keeps root's access to root's files), but only when {@code unshare -U} works. Otherwise this resolver unpacks
 * the real binaries itself and hands zonky a tiny archive whose {@code bin/initdb} and {@code bin/pg_ctl} are
 * scripts running the real ones as {@code nobody} via {@code setpriv} (the postmaster, started by pg_ctl, inherits
 * that identity). The data directory is then chowned to nobody, and every directory above it must be searchable
 * by others (a JUnit {@code @TempDir} or {@code /root} is not).
 */
final class UnprivilegedPostgresBinaries implements PgBinaryResolver {

    private static final Logger LOG = LoggerFactory.getLogger(UnprivilegedPostgresBinaries.class);
    private static final int NOBODY_ID = 65534;
    private static UnprivilegedPostgresBinaries instance;

    private final String setpriv;
    private final Path home = Path.of(System.getProperty("java.io.tmpdir"), "tributary-postgres");

    private UnprivilegedPostgresBinaries(String setpriv) {
        this.setpriv = setpriv;
    }

    /**
     * Whether zonky needs this resolver: this JVM runs as root (Linux: it owns /proc/self) and zonky's own
     * {@code unshare -U} workaround is not usable.
     */
    static boolean needed() {
        try {
            boolean root = Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
            return root && !LinuxUtils.isUnshareAvailable();
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }

    /** One instance per JVM: zonky caches unpacked binaries per resolver instance. */
    static synchronized UnprivilegedPostgresBinaries instance() {
        if (instance == null) {
            String setpriv = Executables.find("setpriv")
                    .orElseThrow(() -> new IllegalStateException(
                            "PostgreSQL refuses to run as root, user namespaces (unshare -U) are not available and setpriv "
                                    + "(util-linux) is missing: run as a non-root user"));
            instance = new UnprivilegedPostgresBinaries(setpriv);
            LOG.info("Running as root without user namespaces: PostgreSQL runs as user nobody (setpriv)");
        }
        return instance;
    }

    /** Makes the data directory usable by nobody. */
    void prepareDataDirectory(Path dataDir) throws IOException {
        for (Path dir = dataDir.getParent(); dir != null; dir = dir.getParent()) {
            if (!Files.getPosixFilePermissions(dir).contains(PosixFilePermission.OTHERS_EXECUTE)) {
                throw new IllegalStateException("PostgreSQL runs as user nobody here (root, no user namespaces), "
                        + "but " + dir + " is not searchable by others: choose a data directory outside it");
            }
        }
        if (!Integer.valueOf(NOBODY_ID).equals(Files.getAttribute(dataDir, "unix:uid"))) {
            try (Stream<Path> paths = Files.walk(dataDir)) {
                for (Path path : (Iterable<Path>) paths::iterator) {
                    Files.setAttribute(path, "unix:uid", NOBODY_ID, LinkOption.NOFOLLOW_LINKS);
                    Files.setAttribute(path, "unix:gid", NOBODY_ID, LinkOption.NOFOLLOW_LINKS);
                }
            }
        }
        Files.setPosixFilePermissions(
                dataDir,
                EnumSet.of(
                        PosixFilePermission.OWNER_READ,
                        PosixFilePermission.OWNER_WRITE,
                        PosixFilePermission.OWNER_EXECUTE));
    }

    @Override
    public InputStream getPgBinary(String system, String machineHardware) throws IOException {
        byte[] archive;
        try (InputStream real = DefaultPostgresBinaryResolver.INSTANCE.getPgBinary(system, machineHardware)) {
            archive = real.readAllBytes();
        }
        Path realDir = home.resolve("pg-" + sha256(archive).substring(0, 16));
        if (!Files.isDirectory(realDir.resolve("bin"))) {
            unpack(archive, realDir);
        }
        return new ByteArrayInputStream(wrapperArchive(realDir));
    }

    /** Unpacks into a fresh directory, then renames it into place, so concurrent JVMs never see half a tree. */
    private void unpack(byte[] archive, Path target) throws IOException {
        Files.createDirectories(home);
        Path staging = home.resolve("unpacking-" + UUID.randomUUID());
        try (TarArchiveInputStream tar =
                new TarArchiveInputStream(new XZInputStream(new ByteArrayInputStream(archive)))) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                Path path = staging.resolve(entry.getName()).normalize();
                if (!path.startsWith(staging)) {
                    throw new IOException("archive entry outside the target: " + entry.getName());
                }
                Files.createDirectories(path.getParent());
                if (entry.isDirectory()) {
                    Files.createDirectories(path);
                } else if (entry.isSymbolicLink()) {
                    Files.createSymbolicLink(path, Path.of(entry.getLinkName()));
                } else if (entry.isLink()) {
                    Files.createLink(path, staging.resolve(entry.getLinkName()).normalize());
                } else {
                    Files.copy(tar, path);
                    Files.setPosixFilePermissions(path, permissions(entry.getMode()));
                }
            }
        }
        try {
            Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
            LOG.info("Unpacked PostgreSQL binaries into {}", target);
        } catch (IOException alreadyThere) {
            if (!Files.isDirectory(target.resolve("bin"))) {
                throw alreadyThere;
            }
            deleteTree(staging);
        }
    }

    /** A txz with bin/initdb and bin/pg_ctl as scripts that drop root and run the real binaries. */
    private byte[] wrapperArchive(Path realDir) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(new XZOutputStream(bytes, new LZMA2Options()))) {
            for (String binary : new String[] {"initdb", "pg_ctl"}) {
                String script = "#!/bin/sh\n"
                        + "# PostgreSQL refuses to run as root: run the real " + binary + " unprivileged.\n"
                        + "cd / && exec " + shellQuote(setpriv) + " --reuid=" + NOBODY_ID + " --regid=" + NOBODY_ID
                        + " --clear-groups -- "
                        + shellQuote(realDir.resolve("bin").resolve(binary).toString()) + " \"$@\"\n";
                byte[] content = script.getBytes(StandardCharsets.UTF_8);
                TarArchiveEntry entry = new TarArchiveEntry("bin/" + binary);
                entry.setSize(content.length);
                entry.setMode(0755);
                entry.setModTime(0);
                tar.putArchiveEntry(entry);
                tar.write(content);
                tar.closeArchiveEntry();
            }
        }
        return bytes.toByteArray();
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] bits = {
            PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
            PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ
        };
        for (int bit = 0; bit < bits.length; bit++) {
            if ((mode & (1 << bit)) != 0) {
                permissions.add(bits[bit]);
            }
        }
        return permissions;
    }

    private static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String shellQuote(String value) {
        return "'" + value.replace("'", "'\\''") + "'";
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(path);
            }
        }
    }
}
