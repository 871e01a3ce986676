package io.tributary.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Parameters;

/** {@code tributary kafka topics | groups | group}. */
@Command(
        name = "kafka",
        description = "The Kafka view: topics, consumer groups.",
        synopsisSubcommandLabel = "COMMAND",
        subcommands = {
            KafkaCommand.Topics.class,
            KafkaCommand.Groups.class,
            KafkaCommand.OneGroup.class,
            HelpCommand.class
        })
final class KafkaCommand extends ApiCommand.Group {

    @Override
    String subcommands() {
        return "topics, groups or group";
    }

    @Command(name = "topics", description = "Tributary's topics: partitions, messages.")
    static final class Topics extends ApiCommand {
        @Override
        void execute() {
            AdminApi api = api();
            print(api.call(() -> api.kafka().kafkaTopics()));
        }
    }

    @Command(name = "groups", description = "The consumer groups: state, members, lag.")
    static final class Groups extends ApiCommand {
        @Override
        void execute() {
            AdminApi api = api();
            print(api.call(() -> api.kafka().kafkaGroups()));
        }
    }

    @Command(name = "group", description = "One consumer group: its members and partitions.")
    static final class OneGroup extends ApiCommand {

        @Parameters(paramLabel = "GROUP_ID", description = "The consumer group id.")
        String groupId = "";

        @Override
        void execute() {
            AdminApi api = api();
            print(api.call(() -> api.kafka().kafkaGroup(groupId)));
        }
    }
}
