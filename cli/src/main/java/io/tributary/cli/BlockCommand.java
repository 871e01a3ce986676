package io.tributary.cli;

import io.tributary.cli.client.model.BlockRequest;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tributary block list | add | remove}: the block list (client ids, usernames, addresses). */
@Command(
        name = "block",
        description = "The block list of client ids, usernames and IP addresses: list, add, remove.",
        synopsisSubcommandLabel = "COMMAND",
        subcommands = {
            BlockCommand.ListEntries.class,
            BlockCommand.Add.class,
            BlockCommand.Remove.class,
            HelpCommand.class
        })
final class BlockCommand extends ApiCommand.Group {

    @Override
    String subcommands() {
        return "list, add or remove";
    }

    @Command(name = "list", description = "The block list, a page at a time.")
    static final class ListEntries extends ApiCommand {

        @Mixin
        PageOptions page = new PageOptions();

        @Override
        void execute() {
            AdminApi api = api();
            print(api.call(() -> api.blockList().listBlockEntries(page.page, page.size)));
        }
    }

    @Command(
            name = "add",
            description = "Blocks a client id, a username or an address (one of them); its connections are closed.")
    static final class Add extends ApiCommand {

        @Option(names = "--client-id", paramLabel = "C", description = "A client id.")
        @Nullable
        String clientId;

        @Option(names = "--username", paramLabel = "U", description = "A username.")
        @Nullable
        String username;

        @Option(names = "--ip", paramLabel = "ADDR[/BITS]", description = "An address or a CIDR range.")
        @Nullable
        String ip;

        @Option(names = "--reason", paramLabel = "R", description = "Why, for the operators.")
        @Nullable
        String reason;

        @Override
        void execute() {
            BlockRequest request = new BlockRequest()
                    .clientId(clientId)
                    .username(username)
                    .ip(ip)
                    .reason(reason);
            AdminApi api = api();
            print(api.call(() -> api.blockList().addBlockEntry(request)));
        }
    }

    @Command(name = "remove", description = "Removes a block list entry.")
    static final class Remove extends ApiCommand {

        @Parameters(paramLabel = "ID", description = "The entry's id (see: block list).")
        String id = "";

        @Override
        void execute() {
            long entry = id(id);
            AdminApi api = api();
            api.call(() -> {
                api.blockList().deleteBlockEntry(entry);
                return null;
            });
            out().println("removed\t" + id);
        }
    }
}
