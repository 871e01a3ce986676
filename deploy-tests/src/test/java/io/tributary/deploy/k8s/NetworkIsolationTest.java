package io.tributary.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.deploy.support.Repo;
import io.tributary.deploy.support.Yamls;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Network isolation on EKS is there and enforced (issue 34): the kustomize overlays carry the Helm chart's
 * NetworkPolicies (same policies, same rules: since issue 34 the transport and routing pods' too), and the cluster definition turns on the VPC CNI's enforcement,
 * without which every policy is accepted and ignored.
 */
class NetworkIsolationTest {

    private static final Path CHART = Repo.path(HelmChart.CHART_DIR);

    private static Map<String, Object> eksctl() {
        return Yamls.load(Repo.read(DeployContext.AWS_DIR + "/cluster/eksctl.yaml"));
    }

    private static Set<String> policies(Manifests manifests) {
        Set<String> names = new TreeSet<>();
        manifests.ofKind("NetworkPolicy").forEach(p -> names.add(Manifests.name(p)));
        return names;
    }

    private static void sameAsTheChart(String overlay, Path values, Set<String> expected) {
        Manifests kustomize = DeployContext.deployment(overlay);
        Manifests chart = HelmChart.plainDeployment(CHART, values, Map.of());
        assertThat(policies(chart)).as("the chart, for " + overlay).isEqualTo(expected);
        assertThat(policies(kustomize)).as(overlay).isEqualTo(expected);
        for (String name : expected) {
            assertThat(kustomize.find("NetworkPolicy", name).orElseThrow().get("spec"))
                    .as(overlay + " NetworkPolicy/" + name)
                    .isEqualTo(chart.find("NetworkPolicy", name).orElseThrow().get("spec"));
        }
    }

    @Test
    void theInClusterOverlayHasTheChartsPoliciesForEveryServiceAndEveryDataStore() {
        sameAsTheChart("in-cluster", null, Set.of("transport", "routing", "session", "kafka", "postgres", "redis"));
    }

    @Test
    void theManagedOverlayHasTheChartsPoliciesForEveryService() {
        sameAsTheChart(
                "aws-managed", CHART.resolve("values-aws-managed.yaml"), Set.of("transport", "routing", "session"));
    }

    @Test
    void theClusterEnforcesNetworkPolicies() {
        Map<String, Object> vpcCni = Yamls.listAt(eksctl(), "addons").stream()
                .map(Yamls::map)
                .filter(addon -> "vpc-cni".equals(addon.get("name")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("eksctl.yaml does not install the vpc-cni add-on"));
        Object configuration = vpcCni.get("configurationValues");
        assertThat(configuration)
                .as("vpc-cni configurationValues (without them the VPC CNI enforces no NetworkPolicy)")
                .isInstanceOf(String.class);
        // The add-on's configuration is a JSON or YAML document given as a string; the value must be the string "true".
        assertThat(Yamls.load((String) configuration)).containsEntry("enableNetworkPolicy", "true");
    }
}
