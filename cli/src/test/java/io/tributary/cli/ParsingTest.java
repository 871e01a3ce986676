package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The command line itself: help and version everywhere, usage errors with exit 2, global options anywhere. */
class ParsingTest {

    @TempDir
    Path home;

    private Cli cli() {
        return new Cli(home);
    }

    @Test
    void help_in_every_form_prints_usage_and_exits_0() {
        for (String[] args : List.of(
                new String[] {"--help"},
                new String[] {"-h"},
                new String[] {"help"},
                new String[] {"help", "sessions"},
                new String[] {"sessions", "--help"},
                new String[] {"sessions", "help"},
                new String[] {"sessions", "help", "list"},
                new String[] {"credentials", "add", "--help"},
                new String[] {"health", "-h"})) {
            Cli.Result help = cli().run(args);
            assertThat(help.exit()).as(String.join(" ", args)).isZero();
            assertThat(help.out()).as(String.join(" ", args)).startsWith("Usage: tributary");
            assertThat(help.err()).as(String.join(" ", args)).isEmpty();
        }
        assertThat(cli().run("--help").out())
                .contains("sessions", "credentials", "health", "TRIBUTARY_TOKEN", "TRIBUTARY_URL", "Exit codes");
        assertThat(cli().run("credentials", "add", "--help").out())
                .contains("--username", "--client-id", "--publish", "%u: the username");
    }

    @Test
    void every_command_and_subcommand_answers_help() {
        List<List<String>> paths = new ArrayList<>();
        collect(
                TributaryCli.commandLine(new Config(Map.of(), home), new ByteArrayInputStream(new byte[0])),
                List.of(),
                paths);
        assertThat(paths).hasSizeGreaterThan(20);
        for (List<String> path : paths) {
            List<String> args = new ArrayList<>(path);
            args.add("--help");
            Cli.Result help = cli().run(args.toArray(String[]::new));
            assertThat(help.exit()).as(String.join(" ", args)).isZero();
            assertThat(help.out()).as(String.join(" ", args)).startsWith("Usage: tributary " + String.join(" ", path));
        }
    }

    private static void collect(CommandLine command, List<String> path, List<List<String>> paths) {
        command.getSubcommands().forEach((name, sub) -> {
            if (!name.equals("help")) {
                List<String> subPath = new ArrayList<>(path);
                subPath.add(name);
                paths.add(subPath);
                collect(sub, subPath, paths);
            }
        });
    }

    @Test
    void version_is_printed_from_any_command() {
        for (String[] args : List.of(new String[] {"--version"}, new String[] {"sessions", "list", "-V"})) {
            Cli.Result version = cli().run(args);
            assertThat(version.exit()).isZero();
            assertThat(version.out()).startsWith("tributary ");
        }
    }

    @Test
    void unknown_and_missing_words_are_usage_errors() {
        Cli.Result none = cli().run();
        assertThat(none.exit()).isEqualTo(2);
        assertThat(none.err())
                .startsWith("tributary: missing a command (see: tributary help)\n")
                .contains("Usage:");

        Cli.Result unknown = cli().run("explode");
        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.err()).startsWith("tributary: unknown command 'explode'\n");

        Cli.Result sub = cli().run("sessions", "explode");
        assertThat(sub.exit()).isEqualTo(2);
        assertThat(sub.err()).startsWith("tributary: sessions: unknown subcommand 'explode'\n");

        Cli.Result bare = cli().run("kafka");
        assertThat(bare.exit()).isEqualTo(2);
        assertThat(bare.err()).startsWith("tributary: missing topics, groups or group\n");

        Cli.Result noId = cli().run("sessions", "show");
        assertThat(noId.exit()).isEqualTo(2);
        assertThat(noId.err()).contains("CLIENT_ID").contains("Usage: tributary sessions show");

        Cli.Result badOption = cli().run("sessions", "list", "--size", "many");
        assertThat(badOption.exit()).isEqualTo(2);
        assertThat(badOption.err()).contains("--size").contains("many");

        Cli.Result notAnId = cli().run("credentials", "show", "12a");
        assertThat(notAnId.exit()).isEqualTo(2);
        assertThat(notAnId.err()).isEqualTo("tributary: '12a' is not an id (a number; see the list command)\n");
    }

    @Test
    void the_old_parsers_missing_value_for_help_is_gone() {
        Cli.Result help = cli().run("sessions", "list", "--help");
        assertThat(help.exit()).isZero();
        assertThat(help.err()).doesNotContain("missing value");
    }
}
