package io.tributary.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Where the CLI finds its server and its token. The server: {@code --url}, else {@code TRIBUTARY_URL}, else the one
 * {@code login} saved, else {@code http://127.0.0.1:8080}. The token: {@code TRIBUTARY_TOKEN}, else the saved one. The
 * saved pair is {@code $XDG_CONFIG_HOME/tributary/token} (default {@code ~/.config/tributary/token}, mode 600): the
 * URL on the first line, the token on the second.
 */
final class Config {

    static final String DEFAULT_URL = "http://127.0.0.1:8080";

    private final Map<String, String> env;
    private final Path home;

    /**
     * @param env the process environment
     * @param home the user's home directory ({@code user.home})
     */
    Config(Map<String, String> env, Path home) {
        this.env = Map.copyOf(env);
        this.home = home;
    }

    Path tokenFile() {
        String config = env.get("XDG_CONFIG_HOME");
        Path base = config == null || config.isBlank() ? home.resolve(".config") : Path.of(config);
        return base.resolve("tributary").resolve("token");
    }

    /** The server's base URL, without a trailing slash. */
    String url(@Nullable String option) {
        String fromEnv = env.get("TRIBUTARY_URL");
        String url = option != null ? option : fromEnv == null || fromEnv.isBlank() ? savedUrl() : fromEnv;
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    /** The token to send; a {@link CliException} (exit 4) when there is none. */
    String token() {
        String fromEnv = env.get("TRIBUTARY_TOKEN");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return fromEnv.trim();
        }
        String saved = savedToken();
        if (saved == null) {
            throw new CliException(
                    ExitCodes.UNAUTHENTICATED, "not signed in: run tributary login, or set TRIBUTARY_TOKEN");
        }
        return saved;
    }

    @Nullable
    String savedToken() {
        List<String> lines = savedLines();
        return lines.size() >= 2 ? lines.get(1).trim() : null;
    }

    private String savedUrl() {
        List<String> lines = savedLines();
        return lines.size() >= 2 ? lines.get(0).trim() : DEFAULT_URL;
    }

    private List<String> savedLines() {
        try {
            return Files.readAllLines(tokenFile(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return List.of();
        }
    }

    /** Saves the pair, readable by the user alone (the file is created with mode 600, never widened first). */
    void save(String url, String token) {
        Path file = tokenFile();
        try {
            Files.createDirectories(file.getParent());
            Files.deleteIfExists(file);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, url + "\n" + token + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new CliException(ExitCodes.REFUSED, "cannot save the token in " + file + ": " + e.getMessage());
        }
    }

    void forget() {
        try {
            Files.deleteIfExists(tokenFile());
        } catch (IOException e) {
            throw new CliException(ExitCodes.REFUSED, "cannot remove " + tokenFile() + ": " + e.getMessage());
        }
    }
}
