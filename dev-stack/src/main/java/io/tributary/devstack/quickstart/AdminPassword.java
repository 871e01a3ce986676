package io.tributary.devstack.quickstart;

import io.tributary.devstack.secret.SecretFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The password of the quick start's first REST API admin. Never a fixed one (issue 34: the fixed development
 * password, printed in README, made anyone who reached the REST port an admin, also when the listeners were on the
 * network): {@code TRIBUTARY_ADMIN_PASSWORD} when given, else one generated at the first start of the data
 * directory and kept there ({@value #FILE}, mode 600), so it stays right across restarts.
 *
 * @param value        the password
 * @param file         where it is kept; null when {@code TRIBUTARY_ADMIN_PASSWORD} gave it
 * @param formerFixed  true for a data directory first started by an earlier version, whose admin was created with
 *                     the former fixed password: it is kept (session-service creates the first admin only once), and
 *                     the banner says to change it
 */
record AdminPassword(String value, Path file, boolean formerFixed) {

    static final String FILE = "admin-password";
    /** What versions before this one gave every quick start's first admin. */
    static final String FORMER_FIXED = "tributary-dev";

    /** Never the password: records end up in assertion messages and logs. */
    @Override
    public String toString() {
        return "AdminPassword[file=" + file + ", formerFixed=" + formerFixed + ", value=(redacted)]";
    }

    /**
     * @param env     the quick start's environment
     * @param dataDir its data directory; {@code postgres/} in it means an earlier start created the first admin
     */
    static AdminPassword of(Map<String, String> env, Path dataDir) {
        String given = env.get("TRIBUTARY_ADMIN_PASSWORD");
        if (given != null && !given.isBlank()) {
            return new AdminPassword(given, null, false);
        }
        Path file = dataDir.toAbsolutePath().resolve(FILE);
        boolean upgraded = !Files.exists(file) && Files.isDirectory(dataDir.resolve("postgres"));
        try {
            Files.createDirectories(dataDir);
            String value = SecretFile.readOrCreate(file, () -> upgraded ? FORMER_FIXED : SecretFile.randomHex(16));
            return new AdminPassword(value, file, value.equals(FORMER_FIXED));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read or create the admin password " + file, e);
        }
    }
}
