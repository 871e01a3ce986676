package io.tributary.deploy.k8s;

import io.tributary.deploy.k8s.ServiceChecks.Pod;
import io.tributary.deploy.services.ServiceCatalog;
import io.tributary.deploy.services.ServiceSettings;
import io.tributary.deploy.support.Repo;
import io.tributary.deploy.support.Yamls;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Scaling and traffic: every service has an autoscaler and a disruption budget; custom metrics exist in the
 * Prometheus adapter and in the service's code; routing does not scale past the publish partitions; the NLB checks
 * the transport's readiness and its idle timeout fits the MQTT keep alive; the perf Jobs run a real scenario against
 * the transport Service.
 */
final class ScalingChecks {

    /** The NLB's TCP idle timeout (fixed default); a keep alive above it lets the NLB drop idle connections. */
    static final int NLB_IDLE_TIMEOUT_SECONDS = 350;

    private static final String ANNOTATION = "service.beta.kubernetes.io/aws-load-balancer-";

    private final Manifests manifests;
    private final DeployContext context;
    private final List<Pod> pods;
    private final List<String> findings = new ArrayList<>();

    private ScalingChecks(Manifests manifests, DeployContext context, List<Pod> pods) {
        this.manifests = manifests;
        this.context = context;
        this.pods = pods;
    }

    static List<String> check(Manifests manifests, DeployContext context, List<Pod> pods) {
        ScalingChecks checks = new ScalingChecks(manifests, context, pods);
        pods.stream().filter(p -> !Manifests.kind(p.workload()).equals("Job")).forEach(checks::scaling);
        manifests.ofKind("Service").stream()
                .filter(s -> "LoadBalancer".equals(Yamls.text(s, "spec.type")))
                .forEach(checks::loadBalancer);
        checks.perfJobs();
        return checks.findings;
    }

    private void scaling(Pod pod) {
        String id = Manifests.id(pod.workload());
        Map<String, String> labels = Manifests.podLabels(pod.workload());
        if (manifests.ofKind("PodDisruptionBudget").stream()
                .noneMatch(b -> Manifests.selects(Yamls.strings(Yamls.at(b, "spec.selector.matchLabels")), labels))) {
            findings.add(id + ": no PodDisruptionBudget");
        }
        List<Map<String, Object>> hpas = manifests.ofKind("HorizontalPodAutoscaler").stream()
                .filter(h -> Manifests.kind(pod.workload()).equals(Yamls.text(h, "spec.scaleTargetRef.kind"))
                        && Manifests.name(pod.workload()).equals(Yamls.text(h, "spec.scaleTargetRef.name")))
                .toList();
        if (hpas.isEmpty()) {
            findings.add(id + ": no HorizontalPodAutoscaler");
        }
        for (Map<String, Object> hpa : hpas) {
            for (Object metric : Yamls.listAt(hpa, "spec.metrics")) {
                String name = Yamls.text(metric, "pods.metric.name");
                if (name != null) {
                    customMetric(Manifests.id(hpa), name, pod.service());
                }
            }
            if (pod.service().module().equals("routing-service")) {
                int partitions = Integer.parseInt(pod.env()
                        .values()
                        .getOrDefault(
                                "TRIBUTARY_PUBLISH_PARTITIONS",
                                pod.service().defaultOf("TRIBUTARY_PUBLISH_PARTITIONS")));
                int max = ((Number) Yamls.at(hpa, "spec.maxReplicas")).intValue();
                if (max > partitions) {
                    findings.add(Manifests.id(hpa) + ": maxReplicas " + max + " > " + partitions
                            + " publish partitions: the extra routers would own no partition");
                }
            }
        }
    }

    /** A Pods metric must be served by the Prometheus adapter and registered by the service (Micrometer name). */
    private void customMetric(String hpa, String metric, ServiceSettings service) {
        if (!context.adapterMetrics().contains(metric)) {
            findings.add(hpa + ": custom metric " + metric + " is not served by the Prometheus adapter rules "
                    + context.adapterMetrics());
        }
        String micrometer = "\"" + metric.replace('_', '.') + "\"";
        if (!sourcesContain(service.sourceRoot(), micrometer)) {
            findings.add(hpa + ": metric " + metric + " (Micrometer " + micrometer + ") is not registered in "
                    + service.module() + "'s code");
        }
    }

    private static boolean sourcesContain(Path root, String text) {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.toString().endsWith(".java"))
                    .anyMatch(f -> Repo.read(f).contains(text));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void loadBalancer(Map<String, Object> service) {
        String id = Manifests.id(service);
        Map<String, String> annotations = Yamls.strings(Yamls.at(service, "metadata.annotations"));
        if (!"service.k8s.aws/nlb".equals(Yamls.text(service, "spec.loadBalancerClass"))) {
            findings.add(
                    id + ": not handed to the AWS Load Balancer Controller (loadBalancerClass service.k8s.aws/nlb)");
        }
        Map<String, String> selector = Yamls.strings(Yamls.at(service, "spec.selector"));
        for (Pod pod : pods) {
            if (!Manifests.selects(selector, Manifests.podLabels(pod.workload()))) {
                continue;
            }
            Map<String, String> env = pod.env().values();
            int management = pod.service().managementPort(env);
            if (!String.valueOf(management).equals(annotations.get(ANNOTATION + "healthcheck-port"))
                    || !"/actuator/health/readiness".equals(annotations.get(ANNOTATION + "healthcheck-path"))
                    || !"http".equals(annotations.get(ANNOTATION + "healthcheck-protocol"))) {
                findings.add(
                        id + ": NLB health check must be HTTP GET /actuator/health/readiness on port " + management);
            }
            if (pod.service().reads("MQTT_MAX_KEEP_ALIVE")
                    && Integer.parseInt(pod.service().effective(env, "MQTT_MAX_KEEP_ALIVE"))
                            > NLB_IDLE_TIMEOUT_SECONDS) {
                findings.add(pod.where() + ": MQTT_MAX_KEEP_ALIVE above the NLB idle timeout ("
                        + NLB_IDLE_TIMEOUT_SECONDS + " s) lets the NLB cut idle MQTT connections");
            }
        }
    }

    private void perfJobs() {
        List<Map<String, Object>> jobs = manifests.ofKind("Job").stream()
                .filter(j -> Manifests.containers(j).stream()
                        .anyMatch(c -> ServiceCatalog.repositoryOf(String.valueOf(c.get("image")))
                                .equals(context.perfImage().repository())))
                .toList();
        TreeSet<String> roles = new TreeSet<>();
        TreeSet<String> runs = new TreeSet<>();
        for (Map<String, Object> job : jobs) {
            Map<String, Object> container = Manifests.containers(job).get(0);
            String id = Manifests.id(job);
            ContainerEnv env = ContainerEnv.of(container, manifests, context.scriptSecrets(), id, findings);
            String command =
                    String.join(
                                    " ",
                                    Yamls.list(container.get("command")).stream()
                                            .map(String::valueOf)
                                            .toList()) + " "
                            + String.join(
                                    " ",
                                    Yamls.list(container.get("args")).stream()
                                            .map(String::valueOf)
                                            .toList());
            if (!command.contains("perf-tests/bin/perf run \"$SCENARIO\" --target \"$TARGET\"")) {
                findings.add(id + ": does not run perf-tests/bin/perf run \"$SCENARIO\" --target \"$TARGET\"");
            }
            // The target is the transport Service, not loopback: perf-tests refuses it without the explicit flag.
            if (!command.contains("--allow-remote")) {
                findings.add(id + ": targets a Service over the network but does not pass --allow-remote");
            }
            String role = command.replaceAll("(?s).*--role (\\S+).*", "$1");
            roles.add(role);
            if (!context.perfImage().workingDirectory().equals(container.get("workingDir"))) {
                findings.add(id + ": workingDir is not the perf image's "
                        + context.perfImage().workingDirectory());
            }
            if (!context.projectVersion().equals(ServiceCatalog.tagOf(String.valueOf(container.get("image"))))) {
                findings.add(id + ": perf image not tagged with the project version");
            }
            String scenario = env.values().get("SCENARIO");
            if (scenario == null
                    || !scenario.startsWith("perf-tests/scenarios/")
                    || !Files.isRegularFile(Repo.path(scenario))) {
                findings.add(id + ": SCENARIO " + scenario + " is no file under perf-tests/scenarios");
            }
            perfTarget(id, env.values().get("TARGET"));
            runs.add(scenario + " " + env.values().get("TARGET") + " "
                    + env.values().get("RUN_ID"));
        }
        if (!roles.equals(new TreeSet<>(List.of("publishers", "subscribers")))) {
            findings.add("perf Jobs must be one --role publishers and one --role subscribers, found " + roles);
        }
        if (runs.size() > 1) {
            findings.add("perf Jobs disagree on scenario, target or run id: " + runs);
        }
    }

    /** The perf target must be a Service port leading to the transport's MQTT port. */
    private void perfTarget(String id, String target) {
        int colon = target == null ? -1 : target.lastIndexOf(':');
        Map<String, Object> service = colon < 0
                ? null
                : manifests.serviceByHost(target.substring(0, colon)).orElse(null);
        if (service == null) {
            findings.add(id + ": TARGET " + target + " is no Service of the deployment");
            return;
        }
        int port = Integer.parseInt(target.substring(colon + 1));
        Map<String, String> selector = Yamls.strings(Yamls.at(service, "spec.selector"));
        boolean reachesMqtt = false;
        for (Object node : Yamls.listAt(service, "spec.ports")) {
            if (((Number) Yamls.at(node, "port")).intValue() != port) {
                continue;
            }
            for (Pod pod : pods) {
                if (pod.service().reads("MQTT_PORT")
                        && Manifests.selects(selector, Manifests.podLabels(pod.workload()))) {
                    Integer containerPort = Manifests.containerPort(pod.container(), Yamls.at(node, "targetPort"));
                    reachesMqtt |= containerPort != null
                            && containerPort
                                    == Integer.parseInt(
                                            pod.service().effective(pod.env().values(), "MQTT_PORT"));
                }
            }
        }
        if (!reachesMqtt) {
            findings.add(id + ": TARGET " + target + " does not lead to the transport's MQTT port");
        }
    }
}
