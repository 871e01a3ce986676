package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the server and the token come from, and the saved token file. */
class ConfigTest {

    @TempDir
    Path home;

    @Test
    void the_token_file_is_under_xdg_config_home_else_under_the_home() {
        assertThat(new Config(Map.of(), home).tokenFile()).isEqualTo(home.resolve(".config/tributary/token"));
        assertThat(new Config(Map.of("XDG_CONFIG_HOME", " "), home).tokenFile())
                .isEqualTo(home.resolve(".config/tributary/token"));
        Path xdg = home.resolve("xdg");
        assertThat(new Config(Map.of("XDG_CONFIG_HOME", xdg.toString()), home).tokenFile())
                .isEqualTo(xdg.resolve("tributary/token"));
    }

    @Test
    void the_url_is_the_option_else_the_environment_else_the_saved_one_else_the_default() throws Exception {
        Config nothing = new Config(Map.of(), home);
        assertThat(nothing.url(null)).isEqualTo("http://127.0.0.1:8080");
        nothing.save("http://saved:1", "t");
        assertThat(nothing.url(null)).isEqualTo("http://saved:1");
        Config env = new Config(Map.of("TRIBUTARY_URL", "http://env:2/"), home);
        assertThat(env.url(null)).isEqualTo("http://env:2");
        assertThat(env.url("http://option:3/")).isEqualTo("http://option:3");
        assertThat(new Config(Map.of("TRIBUTARY_URL", ""), home).url(null)).isEqualTo("http://saved:1");
    }

    @Test
    void the_token_is_the_environments_else_the_saved_one_else_exit_4() {
        Config config = new Config(Map.of(), home);
        assertThatThrownBy(config::token)
                .isInstanceOfSatisfying(
                        CliException.class, e -> assertThat(e.exitCode()).isEqualTo(4))
                .hasMessage("not signed in: run tributary login, or set TRIBUTARY_TOKEN");
        config.save("http://saved:1", "saved-token");
        assertThat(config.token()).isEqualTo("saved-token");
        assertThat(new Config(Map.of("TRIBUTARY_TOKEN", " env-token\n"), home).token())
                .isEqualTo("env-token");
    }

    @Test
    void the_saved_file_is_private_holds_url_then_token_and_is_replaced_and_forgotten() throws Exception {
        Config config = new Config(Map.of(), home);
        Path file = config.tokenFile();
        Files.createDirectories(file.getParent());
        Files.writeString(file, "old");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        config.save("http://a:1", "tok");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        assertThat(Files.readString(file)).isEqualTo("http://a:1\ntok\n");
        config.forget();
        assertThat(file).doesNotExist();
        config.forget();
        assertThat(config.savedToken()).isNull();
    }

    @Test
    void a_file_with_one_line_counts_as_nothing_saved() throws Exception {
        Config config = new Config(Map.of(), home);
        Files.createDirectories(config.tokenFile().getParent());
        Files.writeString(config.tokenFile(), "http://only-a-url:1\n");
        assertThat(config.savedToken()).isNull();
        assertThat(config.url(null)).isEqualTo("http://127.0.0.1:8080");
    }
}
