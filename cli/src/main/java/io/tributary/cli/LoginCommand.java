package io.tributary.cli;

import io.tributary.cli.client.model.IssuedToken;
import io.tributary.cli.client.model.TokenRequest;
import java.io.Console;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tributary login}: an admin token for the user, saved for the commands after it. */
@Command(
        name = "login",
        description = {
            "Gets a token (the password asked, or read from stdin) and saves it.",
            "With the server's URL, in $XDG_CONFIG_HOME/tributary/token (default ~/.config/tributary/token, mode 600)."
        })
final class LoginCommand extends ApiCommand {

    @Option(names = "--user", paramLabel = "NAME", description = "The admin user (default: admin).")
    String user = "admin";

    @Option(names = "--password-stdin", description = "Read the password from stdin (for scripts).")
    boolean passwordStdin;

    @Override
    void execute() {
        String url = root().url();
        String password = passwordStdin ? fromStdin() : fromTerminal(url);
        AdminApi api = api();
        TokenRequest request = new TokenRequest().username(user).password(password);
        IssuedToken answer =
                api.call(() -> api.tokensAnonymous().issueAdminToken(request)).value();
        if (answer == null || answer.getToken() == null) {
            throw new CliException(ExitCodes.REFUSED, "the server answered without a token");
        }
        root().config().save(url, answer.getToken());
        out().println("signed in\t" + user + "\t" + url + "\t" + Objects.toString(answer.getExpiresAt(), ""));
    }

    private String fromStdin() {
        try {
            return new String(root().stdin().readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new CliException(ExitCodes.USAGE, "cannot read the password from stdin: " + e.getMessage());
        }
    }

    private String fromTerminal(String url) {
        @SuppressWarnings("SystemConsoleNull") // Java 17: null without a terminal, as meant here
        Console console = System.console();
        if (console == null) {
            throw new CliException(ExitCodes.USAGE, "no terminal to ask the password: use --password-stdin");
        }
        char[] password = console.readPassword("password for %s at %s: ", user, url);
        if (password == null) {
            throw new CliException(ExitCodes.USAGE, "no password given");
        }
        return new String(password);
    }
}
