package io.tributary.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code tributary subscriptions CLIENT_ID}. */
@Command(name = "subscriptions", description = "The filters a session holds.")
final class SubscriptionsCommand extends ApiCommand {

    @Parameters(paramLabel = "CLIENT_ID", description = "The MQTT client id.")
    String clientId = "";

    @Override
    void execute() {
        AdminApi api = api();
        print(api.call(() -> api.sessions().sessionSubscriptions(clientId)));
    }
}
