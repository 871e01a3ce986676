package io.tributary.it.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.TributaryCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * docs/grafana/tributary.json only reads metrics the services really expose: every metric name of every panel
 * query is in the /actuator/prometheus scrape of the running cluster. Run alone, on a cluster that has seen no
 * traffic yet, this also proves the dashboard does not rely on meters that only appear once something happens.
 */
@ExtendWith(LogsOnFailure.class)
class DashboardTest {

    static final Path DASHBOARD = Path.of("..", "docs", "grafana", "tributary.json");

    private static TributaryCluster cluster;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    private Set<String> exposedNames(String baseUrl) throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(baseUrl + "/actuator/prometheus"))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        Set<String> names = new TreeSet<>();
        response.body()
                .lines()
                .filter(l -> !l.isBlank() && !l.startsWith("#"))
                .forEach(l -> names.add(l.split("[{ ]", 2)[0]));
        return names;
    }

    private static void collectExpressions(JsonNode node, List<String> exprs) {
        if (node.isObject()) {
            JsonNode expr = node.get("expr");
            if (expr != null && expr.isString()) {
                exprs.add(expr.asString());
            }
        }
        for (JsonNode child : node) {
            collectExpressions(child, exprs);
        }
    }

    @Test
    void every_metric_of_the_dashboard_is_exposed() throws Exception {
        JsonNode dashboard = JsonMapper.builder().build().readTree(Files.readString(DASHBOARD));
        assertThat(dashboard.path("panels").size()).isGreaterThanOrEqualTo(10);
        List<String> exprs = new ArrayList<>();
        collectExpressions(dashboard, exprs);
        assertThat(exprs).hasSizeGreaterThanOrEqualTo(dashboard.path("panels").size());

        Set<String> exposed = new TreeSet<>();
        exposed.addAll(exposedNames(cluster.transportManagementUrl(0)));
        exposed.addAll(exposedNames(cluster.transportManagementUrl(1)));
        exposed.addAll(exposedNames(cluster.routingManagementUrl()));
        exposed.addAll(exposedNames(cluster.sessionManagementUrl()));

        Map<String, String> missing = new TreeMap<>();
        for (String expr : exprs) {
            Set<String> names = PromQlNames.of(expr);
            assertThat(names).as("metrics of " + expr).isNotEmpty();
            names.stream().filter(n -> !exposed.contains(n)).forEach(n -> missing.put(n, expr));
        }
        assertThat(missing).as("dashboard metrics not exposed by any service").isEmpty();
    }

    static final Path ALERT_RULES = Path.of("..", "k8s", "aws", "monitoring", "operator", "prometheus-rules.yaml");
    /** Series Prometheus makes itself for every scrape target, not exposed by the services. */
    private static final Set<String> SYNTHETIC = Set.of("up");

    private static void collectRuleExpressions(Object node, List<String> exprs) {
        if (node instanceof Map<?, ?> map) {
            if (map.get("expr") instanceof String expr) {
                exprs.add(expr);
            }
            map.values().forEach(v -> collectRuleExpressions(v, exprs));
        } else if (node instanceof List<?> list) {
            list.forEach(v -> collectRuleExpressions(v, exprs));
        }
    }

    @Test
    void every_metric_of_the_alert_rules_is_exposed() throws Exception {
        Object rules = new org.yaml.snakeyaml.Yaml().load(Files.readString(ALERT_RULES));
        List<String> exprs = new ArrayList<>();
        collectRuleExpressions(rules, exprs);
        assertThat(exprs).hasSizeGreaterThanOrEqualTo(4);

        Set<String> exposed = new TreeSet<>(SYNTHETIC);
        exposed.addAll(exposedNames(cluster.transportManagementUrl(0)));
        exposed.addAll(exposedNames(cluster.routingManagementUrl()));
        exposed.addAll(exposedNames(cluster.sessionManagementUrl()));
        Map<String, String> missing = new TreeMap<>();
        for (String expr : exprs) {
            Set<String> names = PromQlNames.of(expr);
            assertThat(names).as("metrics of " + expr).isNotEmpty();
            names.stream().filter(n -> !exposed.contains(n)).forEach(n -> missing.put(n, expr));
        }
        assertThat(missing).as("alert rule metrics not exposed by any service").isEmpty();
    }
}
