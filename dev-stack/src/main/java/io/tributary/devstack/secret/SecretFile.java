package io.tributary.devstack.secret;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A secret the dev stack generates once per data directory and keeps in a file there, readable by its owner only,
 * so that a restart on the same directory finds the same secret (the embedded Redis's password, the quick start's
 * first admin password).
 */
public final class SecretFile {

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    private static final SecureRandom RANDOM = new SecureRandom();

    private SecretFile() {}

    /**
     * The secret kept in {@code file}, first written there from {@code newSecret} when there is none. The file's
     * mode is tightened to 600 on every call: a copied or restored data directory may have lost it.
     *
     * @throws IOException when the file cannot be read or created
     */
    public static String readOrCreate(Path file, Supplier<String> newSecret) throws IOException {
        if (!Files.exists(file)) {
            writeNew(file, newSecret.get());
        }
        Files.setPosixFilePermissions(file, OWNER_ONLY);
        return Files.readString(file, StandardCharsets.UTF_8).trim();
    }

    /** {@code bytes} random bytes as hex: safe unescaped in URLs, JSON and shell words. */
    public static String randomHex(int bytes) {
        byte[] random = new byte[bytes];
        RANDOM.nextBytes(random);
        return HexFormat.of().formatHex(random);
    }

    private static void writeNew(Path file, String secret) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        // Created owner-only before the secret is written into it, then moved into place whole.
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        Files.writeString(tmp, secret + "\n", StandardCharsets.UTF_8);
        try {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
            Files.deleteIfExists(tmp);
            if (!Files.exists(file)) {
                throw e;
            }
        }
    }
}
