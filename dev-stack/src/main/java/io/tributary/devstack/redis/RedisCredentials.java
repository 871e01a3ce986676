package io.tributary.devstack.redis;

import io.tributary.devstack.secret.SecretFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The one Redis user of an embedded Redis and its password, which is generated at random the first time a data
 * directory is used and kept in it ({@value #PASSWORD_FILE}, readable by its owner only), so the quick start's
 * services find the same password after a restart. The password is hex: it goes into a URL unescaped.
 *
 * @param user     the ACL user the services connect as ({@value #USER}; Redis's {@code default} user is off)
 * @param password its password
 */
public record RedisCredentials(String user, String password) {

    public static final String USER = "tributary";
    /** Where in the data directory the password is kept. */
    public static final String PASSWORD_FILE = "password";

    /** Never the password: records end up in assertion messages and logs. */
    @Override
    public String toString() {
        return "RedisCredentials[user=" + user + ", password=(redacted)]";
    }

    /** The password kept in {@code dataDir}, generated and written there (mode 600) if there is none yet. */
    public static RedisCredentials ofDataDir(Path dataDir) {
        Path file = passwordFile(dataDir);
        try {
            String password = SecretFile.readOrCreate(file, () -> SecretFile.randomHex(24));
            if (!password.matches("[0-9a-f]{32,}")) {
                throw new IllegalStateException(file + " does not hold a generated Redis password (32 or more hex"
                        + " digits); delete it to generate a new one");
            }
            return new RedisCredentials(USER, password);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read or create the Redis password " + file, e);
        }
    }

    public static Path passwordFile(Path dataDir) {
        return dataDir.toAbsolutePath().resolve(PASSWORD_FILE);
    }

    /**
     * {@code url} ({@code redis://host:port...}) with this user and password in it, as Lettuce (and so the services'
     * {@code REDIS_URL}) and Jedis read them.
     */
    public String insertInto(String url) {
        int scheme = url.indexOf("://");
        if (scheme < 0 || url.indexOf('@', scheme) >= 0) {
            throw new IllegalArgumentException("expected redis://host:port without user information");
        }
        return url.substring(0, scheme + 3) + user + ":" + password + "@" + url.substring(scheme + 3);
    }

    /**
     * Redis's ACL file for these credentials: the {@code default} user (which needs no password) off, the named user
     * with every command, key and channel. It holds the password's SHA-256 only, not the password.
     *
     * <p>{@code off} alone keeps every client out of {@code default}: a new connection is not authenticated and no
     * password opens it. Its permissions stay whole because Redis replays the append-only file at start-up as
     * {@code default}: without them every MULTI/EXEC block in the file is refused (NOPERM) and lost.
     */
    String aclFile() {
        return "user default off resetpass ~* &* +@all\n" + "user " + user + " on #" + sha256(password)
                + " ~* &* +@all\n";
    }

    private static String sha256(String value) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }
}
