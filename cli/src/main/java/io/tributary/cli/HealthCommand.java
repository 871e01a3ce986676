package io.tributary.cli;

import io.tributary.cli.client.model.ClusterOverview;
import io.tributary.cli.client.model.GroupHealth;
import io.tributary.cli.client.model.TransportNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;

/**
 * {@code tributary health}: one line per transport node incarnation and per service group. Exit 5 when no transport
 * node is alive or a service group has no member; dead incarnations (a node restarted, or removed by a scale-down)
 * are listed, as history, without failing.
 */
@Command(
        name = "health",
        description = {
            "Transport nodes (alive or dead, connections) and the service groups (state, members, lag).",
            "Exit 5: no live transport node, or a service group without members."
        })
final class HealthCommand extends ApiCommand {

    @Override
    void execute() {
        AdminApi api = api();
        AdminApi.Answer<ClusterOverview> answer = api.call(() -> api.overview().clusterOverview());
        ClusterOverview overview = Objects.requireNonNull(answer.value());
        if (root().json()) {
            out().println(answer.body());
        }
        List<String> problems = new ArrayList<>();
        String table = table(overview, problems);
        if (!root().json()) {
            out().print(table);
        }
        if (!problems.isEmpty()) {
            throw new CliException(ExitCodes.UNHEALTHY, String.join("; ", problems));
        }
    }

    /** The TSV table; adds what is wrong to {@code problems}. */
    static String table(ClusterOverview overview, List<String> problems) {
        StringBuilder out = new StringBuilder("kind\tname\tstatus\tcount\tlag\n");
        int alive = 0;
        List<TransportNode> nodes = overview.getTransportNodes();
        for (TransportNode node : nodes == null ? List.<TransportNode>of() : nodes) {
            boolean up = Boolean.TRUE.equals(node.getAlive());
            alive += up ? 1 : 0;
            out.append("transport\t")
                    .append(node.getNodeId())
                    .append('\t')
                    .append(up ? "alive" : "dead")
                    .append('\t')
                    .append(text(node.getConnections()))
                    .append("\t\n");
        }
        if (alive == 0) {
            problems.add("no transport node is alive");
        }
        group("routing", overview.getRouting(), out, problems);
        group("sessionService", overview.getSessionService(), out, problems);
        return out.toString();
    }

    private static void group(String kind, @Nullable GroupHealth group, StringBuilder out, List<String> problems) {
        if (group == null) {
            return;
        }
        int members = group.getMembers() == null ? 0 : group.getMembers().size();
        out.append(kind)
                .append('\t')
                .append(group.getGroupId())
                .append('\t')
                .append(group.getState())
                .append('\t')
                .append(members)
                .append('\t')
                .append(text(group.getLag()))
                .append('\n');
        if (members == 0) {
            problems.add(kind + " group " + group.getGroupId() + " has no member");
        }
    }

    private static String text(@Nullable Object value) {
        return value == null ? "" : value.toString();
    }
}
