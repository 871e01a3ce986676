package io.tributary.cli;

import io.tributary.cli.client.model.CredentialRequest;
import io.tributary.cli.client.model.CredentialView;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tributary credentials list | show | add | block | unblock | remove | import}. */
@Command(
        name = "credentials",
        description = "MQTT client credentials and their ACLs: list, show, add, block, unblock, remove, import.",
        synopsisSubcommandLabel = "COMMAND",
        subcommands = {
            CredentialsCommand.ListCredentials.class,
            CredentialsCommand.Show.class,
            CredentialsCommand.Add.class,
            CredentialsCommand.Block.class,
            CredentialsCommand.Unblock.class,
            CredentialsCommand.Remove.class,
            CredentialsImport.class,
            HelpCommand.class
        })
final class CredentialsCommand extends ApiCommand.Group {

    @Override
    String subcommands() {
        return "list, show, add, block, unblock, remove or import";
    }

    /** An ACL as typed: filters separated by spaces or {@code ;}; none when blank. */
    static List<String> acl(@Nullable String value) {
        if (value == null || value.isBlank()) {
            return List.of();
        }
        return Arrays.stream(value.trim().split("[\\s;]+")).toList();
    }

    @Command(name = "list", description = "The credentials, a page at a time.")
    static final class ListCredentials extends ApiCommand {

        @Mixin
        PageOptions page = new PageOptions();

        @Override
        void execute() {
            AdminApi api = api();
            print(api.call(() -> api.credentials().listCredentials(page.page, page.size)));
        }
    }

    @Command(name = "show", description = "One credential.")
    static final class Show extends ApiCommand {

        @Parameters(paramLabel = "ID", description = "The credential's id (see: credentials list).")
        String id = "";

        @Override
        void execute() {
            long credential = id(id);
            AdminApi api = api();
            print(api.call(() -> api.credentials().getCredential(credential)));
        }
    }

    @Command(
            name = "add",
            description = {
                "Adds a credential for a username or a client id.",
                "ACLs: topic filters separated by spaces or ';' (%%u: the username, %%c: the client id)."
            })
    static final class Add extends ApiCommand {

        @Option(names = "--username", paramLabel = "U", description = "The MQTT username.")
        @Nullable
        String username;

        @Option(names = "--client-id", paramLabel = "C", description = "The MQTT client id.")
        @Nullable
        String clientId;

        @Option(
                names = "--password",
                paramLabel = "P",
                description = "The password (none: certificate or client id only).")
        @Nullable
        String password;

        @Option(names = "--publish", paramLabel = "FILTERS", description = "Where it may publish, e.g. 'meters/%%u/#'.")
        @Nullable
        String publish;

        @Option(names = "--subscribe", paramLabel = "FILTERS", description = "What it may subscribe to.")
        @Nullable
        String subscribe;

        @Option(names = "--description", paramLabel = "D", description = "A note for the operators.")
        @Nullable
        String description;

        @Override
        void execute() {
            CredentialRequest request = new CredentialRequest()
                    .username(username)
                    .clientId(clientId)
                    .password(password)
                    .publish(acl(publish))
                    .subscribe(acl(subscribe))
                    .description(description);
            AdminApi api = api();
            print(api.call(() -> api.credentials().createCredential(request)));
        }
    }

    /** Block and unblock: the credential as it is, with {@code blocked} changed (its password kept). */
    abstract static class SetBlocked extends ApiCommand {

        @Parameters(paramLabel = "ID", description = "The credential's id (see: credentials list).")
        String id = "";

        abstract boolean blocked();

        @Override
        void execute() {
            long credential = id(id);
            AdminApi api = api();
            CredentialView current = Objects.requireNonNull(
                    api.call(() -> api.credentials().getCredential(credential)).value());
            CredentialRequest request = new CredentialRequest()
                    .username(current.getUsername())
                    .clientId(current.getClientId())
                    .publish(current.getPublish())
                    .subscribe(current.getSubscribe())
                    .description(current.getDescription())
                    .certificateCn(current.getCertificateCn())
                    .blocked(blocked());
            print(api.call(() -> api.credentials().updateCredential(credential, request)));
        }
    }

    @Command(name = "block", description = "Blocks a credential: its clients are refused and disconnected.")
    static final class Block extends SetBlocked {
        @Override
        boolean blocked() {
            return true;
        }
    }

    @Command(name = "unblock", description = "Unblocks a credential.")
    static final class Unblock extends SetBlocked {
        @Override
        boolean blocked() {
            return false;
        }
    }

    @Command(name = "remove", description = "Removes a credential.")
    static final class Remove extends ApiCommand {

        @Parameters(paramLabel = "ID", description = "The credential's id (see: credentials list).")
        String id = "";

        @Override
        void execute() {
            long credential = id(id);
            AdminApi api = api();
            api.call(() -> {
                api.credentials().deleteCredential(credential);
                return null;
            });
            out().println("removed\t" + id);
        }
    }
}
