package io.tributary.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.deploy.support.Repo;
import io.tributary.deploy.support.Yamls;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * k8s/aws/monitoring/operator (the Prometheus Operator's PodMonitor and PrometheusRule) checked offline: the monitor
 * selects exactly the three services' pods of the rendered deployment and scrapes the port and path their
 * annotations name; every alert has a severity, a summary and a runbook section that exists in docs/deploy.md, and
 * the four conditions an operator must hear about are covered. The rules' metric names are checked against running
 * services by integration-tests (DashboardTest).
 */
class OperatorMonitoringTest {

    private static final String DIR = DeployContext.AWS_DIR + "/monitoring/operator";
    private static final Set<String> SERVICES = Set.of("transport", "routing", "session");

    private static List<Map<String, Object>> objects() {
        List<Map<String, Object>> objects = new ArrayList<>();
        for (Object resource : Yamls.listAt(Yamls.load(Repo.read(DIR + "/kustomization.yaml")), "resources")) {
            objects.addAll(Yamls.loadAll(Repo.read(DIR + "/" + resource)));
        }
        return objects;
    }

    private static Map<String, Object> only(String kind) {
        List<Map<String, Object>> found =
                objects().stream().filter(o -> kind.equals(o.get("kind"))).toList();
        assertThat(found).as(kind).hasSize(1);
        assertThat(Yamls.text(found.get(0), "apiVersion")).isEqualTo("monitoring.coreos.com/v1");
        return found.get(0);
    }

    @Test
    void the_pod_monitor_scrapes_each_service_pod_where_its_annotations_say() {
        Map<String, Object> monitor = only("PodMonitor");
        List<Object> expressions = Yamls.listAt(monitor, "spec.selector.matchExpressions");
        assertThat(expressions).hasSize(1);
        Object expression = expressions.get(0);
        assertThat(Yamls.text(expression, "operator")).isEqualTo("In");
        String key = Yamls.text(expression, "key");
        Set<String> values = new HashSet<>();
        Yamls.listAt(expression, "values").forEach(v -> values.add(String.valueOf(v)));
        List<Object> endpoints = Yamls.listAt(monitor, "spec.podMetricsEndpoints");
        assertThat(endpoints).hasSize(1);
        String port = Yamls.text(endpoints.get(0), "port");
        String path = Yamls.text(endpoints.get(0), "path");

        for (String overlay : List.of("in-cluster", "aws-managed")) {
            Set<String> selected = new HashSet<>();
            for (Map<String, Object> workload :
                    DeployContext.deployment(overlay).all()) {
                if (!Manifests.WORKLOADS.contains(Manifests.kind(workload))) {
                    continue;
                }
                Map<String, String> labels = Yamls.strings(Yamls.at(workload, "spec.template.metadata.labels"));
                if (!values.contains(labels.get(key))) {
                    continue;
                }
                selected.add(labels.get(key));
                Map<String, String> annotations =
                        Yamls.strings(Yamls.at(workload, "spec.template.metadata.annotations"));
                assertThat(path).as(Manifests.id(workload)).isEqualTo(annotations.get("prometheus.io/path"));
                Object container =
                        Yamls.listAt(workload, "spec.template.spec.containers").get(0);
                boolean portFound = false;
                for (Object p : Yamls.listAt(container, "ports")) {
                    if (port.equals(Yamls.text(p, "name"))) {
                        portFound = true;
                        assertThat(String.valueOf(Yamls.at(p, "containerPort")))
                                .as(Manifests.id(workload))
                                .isEqualTo(annotations.get("prometheus.io/port"));
                    }
                }
                assertThat(portFound)
                        .as("%s has a port named %s", Manifests.id(workload), port)
                        .isTrue();
            }
            assertThat(selected)
                    .as("services the monitor selects in " + overlay)
                    .isEqualTo(SERVICES);
        }
    }

    @Test
    void every_alert_has_a_severity_a_summary_and_a_runbook_section() {
        Map<String, Object> rule = only("PrometheusRule");
        String deployDoc = Repo.read("docs/deploy.md");
        Set<String> anchors = new HashSet<>();
        Matcher heading = Pattern.compile("(?m)^#{2,4} (.+)$").matcher(deployDoc);
        while (heading.find()) {
            // GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes.
            anchors.add(heading.group(1)
                    .strip()
                    .toLowerCase(Locale.ROOT)
                    .replaceAll("[^a-z0-9 -]", "")
                    .replace(' ', '-'));
        }
        Set<String> alerts = new HashSet<>();
        List<String> exprs = new ArrayList<>();
        for (Object group : Yamls.listAt(rule, "spec.groups")) {
            for (Object r : Yamls.listAt(group, "rules")) {
                String alert = Yamls.text(r, "alert");
                assertThat(alert).isNotBlank();
                alerts.add(alert);
                exprs.add(Yamls.text(r, "expr"));
                assertThat(Yamls.text(r, "labels.severity")).as(alert).isIn("warning", "critical");
                assertThat(Yamls.text(r, "annotations.summary")).as(alert).isNotBlank();
                String runbook = Yamls.text(r, "annotations.runbook_url");
                assertThat(runbook).as(alert).startsWith("docs/deploy.md#");
                assertThat(anchors)
                        .as("runbook section of " + alert)
                        .contains(runbook.substring(runbook.indexOf('#') + 1));
            }
        }
        String all = String.join("\n", exprs);
        assertThat(all)
                .as("consumer lag, connect refusals, queue drops, node down")
                .contains(
                        "tributary_routing_consumer_lag",
                        "tributary_connects_total{result=\"refused\"}",
                        "tributary_routing_dropped_total",
                        "up{");
        assertThat(alerts).hasSizeGreaterThanOrEqualTo(4);
    }
}
