package io.tributary.cli;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tributary sessions list | show | disconnect | remove}. */
@Command(
        name = "sessions",
        description = "MQTT sessions: list, show, disconnect, remove.",
        synopsisSubcommandLabel = "COMMAND",
        subcommands = {
            SessionsCommand.ListSessions.class,
            SessionsCommand.Show.class,
            SessionsCommand.Disconnect.class,
            SessionsCommand.Remove.class,
            HelpCommand.class
        })
final class SessionsCommand extends ApiCommand.Group {

    @Override
    String subcommands() {
        return "list, show, disconnect or remove";
    }

    @Command(name = "list", description = "The sessions, a page at a time.")
    static final class ListSessions extends ApiCommand {

        @Option(
                names = "--connected",
                paramLabel = "true|false",
                arity = "1",
                description = "Only connected ones, or only offline ones.")
        @Nullable
        Boolean connected;

        @Mixin
        PageOptions page = new PageOptions();

        @Override
        void execute() {
            AdminApi api = api();
            print(api.call(() -> api.sessions().listSessions(page.page, page.size, connected)));
        }
    }

    @Command(name = "show", description = "A session's details: session.*, presence.*, queue.*.")
    static final class Show extends ApiCommand {

        @Parameters(paramLabel = "CLIENT_ID", description = "The MQTT client id.")
        String clientId = "";

        @Override
        void execute() {
            AdminApi api = api();
            print(api.call(() -> api.sessions().getSession(clientId)));
        }
    }

    @Command(
            name = "disconnect",
            description = "Disconnects the client (MQTT 5: DISCONNECT 0x98, administrative action).")
    static final class Disconnect extends ApiCommand {

        @Parameters(paramLabel = "CLIENT_ID", description = "The MQTT client id.")
        String clientId = "";

        @Override
        void execute() {
            AdminApi api = api();
            print(api.call(() -> api.sessions().disconnectSession(clientId)));
        }
    }

    @Command(name = "remove", description = "Removes an offline session.")
    static final class Remove extends ApiCommand {

        @Parameters(paramLabel = "CLIENT_ID", description = "The MQTT client id.")
        String clientId = "";

        @Override
        void execute() {
            AdminApi api = api();
            api.call(() -> {
                api.sessions().deleteSession(clientId);
                return null;
            });
            out().println("removed\t" + clientId);
        }
    }
}
