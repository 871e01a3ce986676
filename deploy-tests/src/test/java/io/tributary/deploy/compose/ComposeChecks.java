package io.tributary.deploy.compose;

import io.tributary.deploy.compose.ComposeProject.ComposeService;
import io.tributary.deploy.compose.ComposeProject.Port;
import io.tributary.deploy.services.ServiceCatalog;
import io.tributary.deploy.services.ServiceSettings;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * docker-compose.yml against the code: environment variables the services read, required settings, identical
 * topic settings, unique node ids, images and versions, and which port each service listens on. Wiring between
 * services (addresses, dependencies, HAProxy) is in {@link ComposeWiringChecks}. Every method returns findings;
 * none means the file matches.
 */
final class ComposeChecks {

    private static final Set<String> HEALTH_PATHS =
            Set.of("/actuator/health", "/actuator/health/readiness", "/actuator/health/liveness");

    private final ComposeProject project;
    private final List<String> findings = new ArrayList<>();
    /** Our services by compose name, with what each one reads. */
    private final Map<String, ServiceSettings> tributary = new LinkedHashMap<>();

    private ComposeChecks(ComposeProject project, ServiceCatalog catalog) {
        this.project = project;
        project.services().forEach((name, service) -> {
            if (service.image() != null) {
                catalog.byImage(service.image()).ifPresent(settings -> tributary.put(name, settings));
            }
        });
    }

    static List<String> check(
            ComposeProject project,
            HaproxyConfig haproxy,
            ServiceCatalog catalog,
            String projectVersion,
            String kafkaVersion) {
        ComposeChecks checks = new ComposeChecks(project, catalog);
        checks.findings.addAll(project.problems());
        checks.versions(projectVersion, kafkaVersion);
        checks.images(projectVersion, kafkaVersion);
        checks.environment();
        checks.topicSettings();
        checks.nodeIds();
        checks.healthchecks();
        checks.listeningPorts();
        checks.findings.addAll(ComposeWiringChecks.check(project, haproxy, checks.tributary));
        checks.findings.addAll(ComposeClientAddressChecks.check(project, haproxy, checks.tributary));
        return checks.findings;
    }

    private void versions(String projectVersion, String kafkaVersion) {
        expectDotEnv("TRIBUTARY_VERSION", projectVersion, "the Maven project version");
        expectDotEnv("KAFKA_VERSION", kafkaVersion, "the Kafka version of the build");
        Set<String> unused = new TreeSet<>(project.dotEnv().keySet());
        unused.removeAll(project.usedVariables());
        if (!unused.isEmpty()) {
            findings.add(".env defines variables docker-compose.yml never uses: " + unused);
        }
    }

    private void expectDotEnv(String variable, String expected, String what) {
        String actual = project.dotEnv().get(variable);
        if (!expected.equals(actual)) {
            findings.add(".env " + variable + "=" + actual + " is not " + what + " (" + expected + ")");
        }
    }

    private void images(String projectVersion, String kafkaVersion) {
        project.services().forEach((name, service) -> {
            if (service.image() == null) {
                findings.add(name + ": no image (Compose must not build: the images come from Jib)");
                return;
            }
            String tag = ServiceCatalog.tagOf(service.image());
            if (tributary.containsKey(name)) {
                if (!projectVersion.equals(tag)) {
                    findings.add(name + ": image " + service.image() + " is not tagged with the project version "
                            + projectVersion);
                }
            } else if (tag == null || tag.isEmpty() || tag.equals("latest")) {
                findings.add(name + ": third-party image " + service.image() + " is not pinned to a version");
            } else if (ServiceCatalog.repositoryOf(service.image()).equals("apache/kafka")
                    && !tag.equals(kafkaVersion)) {
                findings.add(name + ": Kafka " + tag + " is not the build's Kafka " + kafkaVersion);
            }
        });
        if (tributary.values().stream().map(ServiceSettings::module).distinct().count()
                < ServiceCatalog.MODULES.size()) {
            findings.add("docker-compose.yml does not run every service: " + ServiceCatalog.MODULES + ", found "
                    + tributary.values());
        }
    }

    private void environment() {
        tributary.forEach((name, settings) -> {
            Map<String, String> env = project.services().get(name).environment();
            for (String variable : env.keySet()) {
                if (!settings.uses(env, variable)) {
                    findings.add(name + ": " + variable + " is not read by " + settings.module()
                            + " (its application.yml reads "
                            + new TreeSet<>(settings.variables().keySet()) + ")");
                }
            }
            for (String variable : settings.mustBeSet()) {
                if (!env.containsKey(variable) || env.get(variable).isEmpty()) {
                    findings.add(name + ": " + variable + " must be set (" + settings.module() + "'s default '"
                            + settings.defaultOf(variable) + "' only fits a developer machine)");
                }
            }
        });
    }

    private void topicSettings() {
        Set<String> topicVariables = new TreeSet<>();
        tributary.values().forEach(s -> topicVariables.addAll(s.topicVariables()));
        topicVariables.add("KAFKA_BOOTSTRAP_SERVERS");
        for (String variable : topicVariables) {
            Map<String, String> values = new TreeMap<>();
            tributary.forEach((name, settings) -> values.put(
                    name, settings.effective(project.services().get(name).environment(), variable)));
            if (new TreeSet<>(values.values()).size() > 1) {
                findings.add("services disagree on " + variable + ": " + values);
            }
        }
    }

    private void nodeIds() {
        Map<String, String> owners = new HashMap<>();
        tributary.forEach((name, settings) -> {
            if (!settings.reads("TRIBUTARY_NODE_ID")) {
                return;
            }
            String id = project.services().get(name).environment().getOrDefault("TRIBUTARY_NODE_ID", "");
            if (!id.matches("[A-Za-z0-9._-]+")) {
                findings.add(name + ": TRIBUTARY_NODE_ID '" + id + "' is not a valid node id [A-Za-z0-9._-]+");
            }
            String previous = owners.putIfAbsent(id, name);
            if (previous != null) {
                findings.add(name + " and " + previous + " share TRIBUTARY_NODE_ID " + id
                        + " (one downlink topic for two nodes)");
            }
        });
    }

    private void healthchecks() {
        project.services().forEach((name, service) -> {
            // A one-shot step (kafka-setup) is waited for by its exit code, not its health.
            boolean oneShot = project.services().values().stream()
                    .anyMatch(s -> "service_completed_successfully"
                            .equals(s.dependsOn().get(name)));
            if (service.healthcheck().isEmpty() && !oneShot) {
                findings.add(name + ": no healthcheck");
                return;
            }
            ServiceSettings settings = tributary.get(name);
            if (settings == null) {
                return;
            }
            String url = service.healthcheck().stream()
                    .filter(part -> part.startsWith("http"))
                    .findFirst()
                    .orElse(null);
            if (url == null) {
                findings.add(name + ": healthcheck does not call the actuator over HTTP: " + service.healthcheck());
                return;
            }
            URI uri = URI.create(url);
            int port = settings.managementPort(service.environment());
            if (uri.getPort() != port || !HEALTH_PATHS.contains(uri.getPath())) {
                findings.add(
                        name + ": healthcheck " + url + " is not an actuator health path on MANAGEMENT_PORT " + port);
            }
        });
    }

    private void listeningPorts() {
        tributary.forEach((name, settings) -> {
            ComposeService service = project.services().get(name);
            Set<Integer> listening = new TreeSet<>(settings.httpPorts(service.environment()));
            if (settings.reads("MQTT_PORT")) {
                listening.add(Integer.parseInt(settings.effective(service.environment(), "MQTT_PORT")));
            }
            for (Port port : service.ports()) {
                if (!listening.contains(port.target())) {
                    findings.add(name + ": publishes container port " + port.target() + " but listens on " + listening);
                }
            }
        });
    }
}
