package io.tributary.deploy.compose;

import static io.tributary.deploy.compose.ComposeEdits.compose;
import static io.tributary.deploy.compose.ComposeEdits.findings;
import static io.tributary.deploy.compose.ComposeEdits.replace;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.deploy.support.Repo;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * issue 34, "one token for every caller": in the compose stack session-service gets both roles' internal tokens, each
 * transport node and the router only their own (from the generated env files), and each way of sharing them again,
 * made once in the real docker-compose.yml, is reported.
 */
class ComposeInternalTokensTest {

    private static final String TRANSPORT_SOURCE =
            "<TRIBUTARY_INTERNAL_TRANSPORT_TOKEN generated into internal-transport.env>";
    private static final String ROUTING_SOURCE =
            "<TRIBUTARY_INTERNAL_ROUTING_TOKEN generated into internal-routing.env>";

    @Test
    void sessionServiceHoldsBothTokensAndEveryNodeOnlyItsOwn() {
        ComposeProject project = ComposeProject.load();
        assertThat(project.services().get("session").environment())
                .containsEntry("TRIBUTARY_INTERNAL_TRANSPORT_TOKEN", TRANSPORT_SOURCE)
                .containsEntry("TRIBUTARY_INTERNAL_ROUTING_TOKEN", ROUTING_SOURCE)
                .doesNotContainKey("TRIBUTARY_INTERNAL_TOKEN");
        for (String node : List.of("transport-1", "transport-2")) {
            assertThat(project.services().get(node).environment())
                    .as(node)
                    .containsEntry("TRIBUTARY_INTERNAL_TOKEN", "${TRIBUTARY_INTERNAL_TRANSPORT_TOKEN}")
                    .containsEntry("TRIBUTARY_INTERNAL_TRANSPORT_TOKEN", TRANSPORT_SOURCE)
                    .doesNotContainValue(ROUTING_SOURCE);
        }
        assertThat(project.services().get("routing").environment())
                .containsEntry("TRIBUTARY_INTERNAL_TOKEN", "${TRIBUTARY_INTERNAL_ROUTING_TOKEN}")
                .containsEntry("TRIBUTARY_INTERNAL_ROUTING_TOKEN", ROUTING_SOURCE)
                .doesNotContainValue(TRANSPORT_SOURCE);
        assertThat(findings(compose())).isEmpty();
    }

    @Test
    void aRouterPresentingTheTransportNodesTokenIsReported() {
        String opened = replace(
                compose(),
                "      TRIBUTARY_INTERNAL_TOKEN: $${TRIBUTARY_INTERNAL_ROUTING_TOKEN}\n",
                "      TRIBUTARY_INTERNAL_TOKEN: $${TRIBUTARY_INTERNAL_TRANSPORT_TOKEN}\n");
        opened = replace(
                opened,
                "    env_file:\n      - deploy/compose/secrets/internal-routing.env\n",
                "    env_file:\n      - deploy/compose/secrets/internal-transport.env\n");
        assertThat(findings(opened))
                .contains("routing: TRIBUTARY_INTERNAL_TOKEN comes from " + TRANSPORT_SOURCE + ", not from the routing"
                        + " nodes' token " + ROUTING_SOURCE + " (session-service's TRIBUTARY_INTERNAL_ROUTING_TOKEN)")
                .anyMatch(f -> f.startsWith("routing: holds the transport nodes' internal token"));
    }

    @Test
    void aTransportNodeThatAlsoReadsTheRoutersTokenIsReported() {
        String opened = replace(
                compose(),
                "    - deploy/compose/secrets/internal-transport.env\n",
                "    - deploy/compose/secrets/internal-transport.env\n    - deploy/compose/secrets/internal-routing.env\n");
        assertThat(findings(opened))
                .contains("transport-1: holds the routing nodes' internal token (" + ROUTING_SOURCE
                        + ", as TRIBUTARY_INTERNAL_ROUTING_TOKEN): each node may hold its own role's token only")
                .anyMatch(f -> f.startsWith("transport-2: holds the routing nodes' internal token"));
    }

    @Test
    void sessionServiceWithOneTokenForBothRolesOrWithoutOneIsReported() {
        String one = replace(
                compose(),
                "      - deploy/compose/secrets/internal-routing.env\n      - deploy/compose/secrets/admin.env\n",
                "      - deploy/compose/secrets/admin.env\n");
        one = replace(
                one,
                "      POSTGRES_URL: jdbc:postgresql://postgres:5432/tributary\n",
                "      POSTGRES_URL: jdbc:postgresql://postgres:5432/tributary\n"
                        + "      TRIBUTARY_INTERNAL_ROUTING_TOKEN: $${TRIBUTARY_INTERNAL_TRANSPORT_TOKEN}\n");
        assertThat(findings(one))
                .anyMatch(f -> f.startsWith("session: TRIBUTARY_INTERNAL_TRANSPORT_TOKEN and"
                        + " TRIBUTARY_INTERNAL_ROUTING_TOKEN come from the same secret " + TRANSPORT_SOURCE))
                .anyMatch(f -> f.startsWith("routing: TRIBUTARY_INTERNAL_TOKEN comes from " + ROUTING_SOURCE));
        String none = replace(
                compose(),
                "      - deploy/compose/secrets/internal-routing.env\n      - deploy/compose/secrets/admin.env\n",
                "      - deploy/compose/secrets/admin.env\n");
        assertThat(findings(none))
                .contains("session: TRIBUTARY_INTERNAL_ROUTING_TOKEN (the routing nodes' internal token) does not come"
                        + " from a secret");
        assertThat(ComposeChecks.check(
                        ComposeProject.parse(none, Repo.read(".env")),
                        HaproxyConfig.parse(Repo.read("deploy/haproxy/haproxy.cfg")),
                        io.tributary.deploy.services.ServiceCatalog.load(),
                        Repo.projectVersion(),
                        Repo.kafkaVersion()))
                .anyMatch(f -> f.startsWith("session: TRIBUTARY_INTERNAL_ROUTING_TOKEN must be set"));
    }
}
