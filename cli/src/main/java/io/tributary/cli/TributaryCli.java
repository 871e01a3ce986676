package io.tributary.cli;

import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/** {@code tributary}: session-service's admin REST API from a shell, one subcommand per verb. */
@Command(
        name = "tributary",
        scope = ScopeType.INHERIT,
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "The Tributary operator CLI: session-service's admin REST API from a shell.",
        synopsisSubcommandLabel = "COMMAND",
        subcommands = {
            LoginCommand.class,
            LogoutCommand.class,
            SessionsCommand.class,
            SubscriptionsCommand.class,
            RetainedCommand.class,
            CredentialsCommand.class,
            BlockCommand.class,
            KafkaCommand.class,
            HealthCommand.class,
            HelpCommand.class
        })
public final class TributaryCli implements Callable<Integer> {

    /** The root's footer only (a footer in the annotation would be inherited by every subcommand). */
    static final String[] FOOTER = {
        "",
        "Output: tab-separated with a header row (one object: key/value lines), or",
        "  with --json the API's JSON as it came.",
        "Server: --url, else TRIBUTARY_URL, else the one `login` saved, else",
        "  " + Config.DEFAULT_URL + ".",
        "Token: TRIBUTARY_TOKEN, else the one `login` saved (with its server) in",
        "  $XDG_CONFIG_HOME/tributary/token (default ~/.config/tributary/token).",
        "Exit codes: 0 ok, 1 the API refused (its message on stderr), 2 usage,",
        "  3 server unreachable, 4 not signed in or token rejected (401),",
        "  5 `health` found no live transport node or a service group without members.",
        "`tributary COMMAND --help` or `tributary help COMMAND` tells more."
    };

    @Option(
            names = "--url",
            paramLabel = "URL",
            scope = ScopeType.INHERIT,
            description =
                    "session-service's base URL (default: TRIBUTARY_URL, the saved one, " + Config.DEFAULT_URL + ")")
    @Nullable
    String url;

    @Option(
            names = "--json",
            scope = ScopeType.INHERIT,
            description = "Print the API's JSON as it came instead of tab-separated text.")
    boolean json;

    @Spec
    @Nullable
    CommandSpec spec;

    private final Config config;
    private final InputStream stdin;
    private @Nullable AdminApi api;

    TributaryCli(Config config, InputStream stdin) {
        this.config = config;
        this.stdin = stdin;
    }

    public static void main(String[] args) {
        Config config = new Config(System.getenv(), Path.of(System.getProperty("user.home")));
        // UTF-8 as the server writes; bin/tributary runs the JVM with file.encoding=UTF-8 so the generated client
        // decodes its answers the same way.
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        int exit = run(args, config, System.in, out, err);
        out.flush();
        err.flush();
        System.exit(exit);
    }

    /** Runs one command line; returns its exit code. */
    static int run(String[] args, Config config, InputStream stdin, PrintWriter out, PrintWriter err) {
        CommandLine commandLine = commandLine(config, stdin);
        commandLine.setOut(out);
        commandLine.setErr(err);
        int exit = commandLine.execute(args);
        out.flush();
        err.flush();
        return exit;
    }

    static CommandLine commandLine(Config config, InputStream stdin) {
        CommandLine commandLine = new CommandLine(new TributaryCli(config, stdin));
        commandLine.getCommandSpec().usageMessage().footer(FOOTER);
        commandLine.setOverwrittenOptionsAllowed(true); // an option given twice: the last one counts, as before
        commandLine.setParameterExceptionHandler(Failures::usage);
        commandLine.setExecutionExceptionHandler(Failures::execution);
        return commandLine;
    }

    /** {@code tributary} alone: a usage error, as a command is needed. */
    @Override
    public Integer call() {
        throw new ParameterException(
                Objects.requireNonNull(spec).commandLine(), "missing a command (see: tributary help)");
    }

    Config config() {
        return config;
    }

    InputStream stdin() {
        return stdin;
    }

    boolean json() {
        return json;
    }

    /** The server's base URL for this command line. */
    String url() {
        return config.url(url);
    }

    AdminApi api() {
        if (api == null) {
            api = new AdminApi(url(), config::token);
        }
        return api;
    }
}
