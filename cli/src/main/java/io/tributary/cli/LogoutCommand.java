package io.tributary.cli;

import picocli.CommandLine.Command;

/** {@code tributary logout}: revokes the saved token and forgets it. */
@Command(name = "logout", description = "Revokes the saved token and forgets it.")
final class LogoutCommand extends ApiCommand {

    @Override
    void execute() {
        Config config = root().config();
        if (config.savedToken() != null) {
            try {
                AdminApi api = api();
                api.call(() -> {
                    api.tokens().revokeAdminToken();
                    return null;
                });
            } catch (CliException e) {
                // a token the server no longer knows is forgotten all the same
            }
        }
        config.forget();
        out().println("signed out");
    }
}
