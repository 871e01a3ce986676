package io.tributary.cli;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tributary retained list | delete}. */
@Command(
        name = "retained",
        description = "Retained messages: list, delete.",
        synopsisSubcommandLabel = "COMMAND",
        subcommands = {RetainedCommand.ListRetained.class, RetainedCommand.Delete.class, HelpCommand.class})
final class RetainedCommand extends ApiCommand.Group {

    @Override
    String subcommands() {
        return "list or delete";
    }

    @Command(name = "list", description = "Retained messages whose topic starts with the prefix (all without one).")
    static final class ListRetained extends ApiCommand {

        @Parameters(paramLabel = "TOPIC_PREFIX", arity = "0..1", description = "The start of the topics.")
        @Nullable
        String positionalPrefix;

        @Option(names = "--prefix", paramLabel = "TOPIC_PREFIX", description = "The same as TOPIC_PREFIX.")
        @Nullable
        String prefix;

        @Mixin
        PageOptions page = new PageOptions();

        @Override
        void execute() {
            String topicPrefix = prefix != null ? prefix : positionalPrefix != null ? positionalPrefix : "";
            AdminApi api = api();
            print(api.call(() -> api.retained().listRetained(topicPrefix, page.page, page.size)));
        }
    }

    @Command(name = "delete", description = "Deletes the retained message of a topic.")
    static final class Delete extends ApiCommand {

        @Parameters(paramLabel = "TOPIC", description = "The topic.")
        String topic = "";

        @Override
        void execute() {
            AdminApi api = api();
            api.call(() -> {
                api.retained().deleteRetained(topic);
                return null;
            });
            out().println("deleted\t" + topic);
        }
    }
}
