package io.tributary.deploy.k8s;

import io.tributary.deploy.services.ServiceSettings;
import io.tributary.deploy.support.WebSocketOrigins;
import io.tributary.deploy.support.Yamls;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The Tributary pods against the code: each container's environment is exactly what its service reads (and has
 * what it must), the topic settings are the same everywhere, transport node ids are stable and unique, ports are
 * declared, probes and metrics annotations are on the service's management port, shutdown gets enough time, and
 * internal URLs point at Services that reach the right pods (session-service's internal API port for
 * {@code SESSION_SERVICE_URL}). No public Service exposes a private port: {@link PrivatePortChecks}; every pod's ingress is a NetworkPolicy's: {@link PodIngressChecks}. Autoscalers, the NLB and the perf Jobs: {@link ScalingChecks}.
 */
final class ServiceChecks {

    record Pod(Map<String, Object> workload, Map<String, Object> container, ServiceSettings service, ContainerEnv env) {

        String where() {
            return Manifests.id(workload) + " container " + container.get("name");
        }
    }

    private final Manifests manifests;
    private final DeployContext context;
    private final List<String> findings = new ArrayList<>();
    private final List<Pod> pods = new ArrayList<>();

    private ServiceChecks(Manifests manifests, DeployContext context) {
        this.manifests = manifests;
        this.context = context;
        for (Map<String, Object> workload : manifests.workloads()) {
            for (Map<String, Object> container : Manifests.containers(workload)) {
                context.catalog()
                        .byImage(String.valueOf(container.get("image")))
                        .ifPresent(service -> pods.add(new Pod(
                                workload,
                                container,
                                service,
                                ContainerEnv.of(
                                        container,
                                        manifests,
                                        context.scriptSecrets(),
                                        Manifests.id(workload),
                                        new ArrayList<>()))));
            }
        }
    }

    static List<String> check(Manifests manifests, DeployContext context) {
        ServiceChecks checks = new ServiceChecks(manifests, context);
        if (checks.pods.stream().map(p -> p.service().module()).distinct().count()
                < context.catalog().all().size()) {
            checks.findings.add("not every service runs: "
                    + checks.pods.stream().map(Pod::service).toList());
        }
        checks.pods.forEach(checks::pod);
        checks.sharedSettings();
        checks.nodeIds();
        checks.findings.addAll(ScalingChecks.check(manifests, context, checks.pods));
        checks.findings.addAll(RedisAuthChecks.check(manifests, checks.pods));
        checks.findings.addAll(KafkaAuthChecks.check(manifests, checks.pods));
        checks.findings.addAll(io.tributary.deploy.support.InternalTokenRules.check(checks.pods.stream()
                .map(p -> new io.tributary.deploy.support.InternalTokenRules.Holder(
                        p.where(), p.service().module(), p.env().secretSources()))
                .toList()));
        ClusterNetwork network = ClusterNetwork.shipped();
        checks.findings.addAll(ClientAddressChecks.check(manifests, checks.pods, network));
        checks.findings.addAll(PrivatePortChecks.check(manifests, checks.pods));
        checks.findings.addAll(PodIngressChecks.check(manifests, checks.pods, network));
        return checks.findings;
    }

    private void pod(Pod pod) {
        String where = pod.where();
        ServiceSettings service = pod.service();
        pod.env().values().keySet().stream()
                .filter(v -> !service.uses(pod.env().values(), v))
                .forEach(v -> findings.add(where + ": "
                        + v + " is not read by " + service.module() + " (application.yml reads "
                        + new TreeSet<>(service.variables().keySet()) + ")"));
        for (String variable : service.mustBeSet()) {
            String value = pod.env().values().get(variable);
            if (value == null || value.isEmpty()) {
                findings.add(where + ": " + variable + " must be set (the default '" + service.defaultOf(variable)
                        + "' only fits a developer machine)");
            }
        }
        String tag = io.tributary.deploy.services.ServiceCatalog.tagOf(
                String.valueOf(pod.container().get("image")));
        if (!context.projectVersion().equals(tag)) {
            findings.add(where + ": image tag " + tag + " is not the project version " + context.projectVersion()
                    + " (scripts/install.sh sets the registry and tag)");
        }
        Map<String, String> literals = literals(pod);
        int management = service.managementPort(literals);
        expectPort(pod, "management", management);
        if (service.reads("HTTP_PORT")) {
            expectPort(pod, "http", Integer.parseInt(service.effective(literals, "HTTP_PORT")));
        }
        service.internalApiPort(literals).ifPresent(port -> expectPort(pod, "internal", port));
        if (service.reads("MQTT_PORT")) {
            // MQTT_PLAIN_ENABLED=false: no plain listener, so no port of it to declare.
            if (!service.reads("MQTT_PLAIN_ENABLED")
                    || !"false".equals(service.effective(literals, "MQTT_PLAIN_ENABLED"))) {
                expectPort(pod, "mqtt", Integer.parseInt(service.effective(literals, "MQTT_PORT")));
            }
            String ws = service.reads("MQTT_WS_PORT") ? service.effective(literals, "MQTT_WS_PORT") : "0";
            if (!ws.isBlank() && Integer.parseInt(ws) > 0) {
                expectPort(pod, "mqtt-ws", Integer.parseInt(ws));
            }
        }
        probe(pod, "livenessProbe", "/actuator/health/liveness", management, true);
        probe(pod, "readinessProbe", "/actuator/health/readiness", management, true);
        probe(pod, "startupProbe", "/actuator/health/liveness", management, false);
        Map<String, String> annotations = Yamls.strings(Yamls.at(pod.workload(), "spec.template.metadata.annotations"));
        if (!"true".equals(annotations.get("prometheus.io/scrape"))
                || !String.valueOf(management).equals(annotations.get("prometheus.io/port"))
                || !"/actuator/prometheus".equals(annotations.get("prometheus.io/path"))) {
            findings.add(where + ": pod is not annotated for Prometheus on " + management + "/actuator/prometheus: "
                    + annotations);
        }
        shutdown(pod, literals);
        urls(pod, literals);
        database(pod, literals);
        WebSocketOrigins.finding(pod.env().values().get(WebSocketOrigins.VARIABLE))
                .ifPresent(f -> findings.add(where + ": " + f));
    }

    static Map<String, String> literals(Pod pod) {
        Map<String, String> literals = new LinkedHashMap<>();
        pod.env().values().keySet().forEach(k -> {
            String value = pod.env().literalValue(k);
            if (value != null) {
                literals.put(k, value);
            }
        });
        return literals;
    }

    private void expectPort(Pod pod, String name, int port) {
        Integer declared = Manifests.containerPort(pod.container(), name);
        if (declared == null || declared != port) {
            findings.add(pod.where() + ": container port '" + name + "' is " + declared + ", the service listens on "
                    + port);
        }
    }

    private void probe(Pod pod, String probe, String path, int port, boolean required) {
        Object node = pod.container().get(probe);
        if (node == null) {
            if (required) {
                findings.add(pod.where() + ": no " + probe);
            }
            return;
        }
        Integer probePort = Manifests.containerPort(pod.container(), Yamls.at(node, "httpGet.port"));
        if (!path.equals(Yamls.text(node, "httpGet.path")) || probePort == null || probePort != port) {
            findings.add(pod.where() + ": " + probe + " must GET " + path + " on the management port " + port);
        }
    }

    /**
     * preStop (endpoints and load balancers drop the pod), a transport node's drain (its MQTT listener waits up to
     * MQTT_DRAIN_TIMEOUT for its clients to go) and Spring's graceful shutdown must fit the grace period, or the
     * kubelet's SIGKILL cuts the drain short.
     */
    private void shutdown(Pod pod, Map<String, String> literals) {
        Object sleep = Yamls.at(pod.container(), "lifecycle.preStop.sleep.seconds");
        int preStop = sleep == null ? 0 : ((Number) sleep).intValue();
        if (sleep == null) {
            findings.add(pod.where() + ": no preStop sleep: the pod would stop before being removed from endpoints");
        }
        ServiceSettings service = pod.service();
        int drain = service.reads("MQTT_DRAIN_TIMEOUT")
                ? (int) java.time.Duration.parse("PT"
                                + service.effective(literals, "MQTT_DRAIN_TIMEOUT")
                                        .toUpperCase(java.util.Locale.ROOT))
                        .toSeconds()
                : 0;
        Object grace = Manifests.podSpec(pod.workload()).get("terminationGracePeriodSeconds");
        int needed = preStop + drain + service.shutdownPhaseSeconds();
        if (grace == null || ((Number) grace).intValue() < needed + 5) {
            findings.add(
                    pod.where() + ": terminationGracePeriodSeconds " + grace + " is shorter than preStop " + preStop
                            + " s + drain " + drain + " s + graceful shutdown " + service.shutdownPhaseSeconds()
                            + " s + margin");
        }
    }

    private void urls(Pod pod, Map<String, String> literals) {
        literals.forEach((variable, value) -> {
            if (variable.endsWith("_URL")) {
                URI uri = io.tributary.deploy.support.UrlPasswords.withoutUserInfo(value);
                reach(pod, variable, uri.getHost(), uri.getPort());
            } else if (variable.endsWith("_SERVERS")) {
                for (String address : value.split(",")) {
                    int colon = address.lastIndexOf(':');
                    reach(
                            pod,
                            variable,
                            address.substring(0, colon).trim(),
                            Integer.parseInt(address.substring(colon + 1)));
                }
            }
        });
    }

    /** A host inside the cluster must be a Service whose port leads to a container port of the pods it selects. */
    private void reach(Pod pod, String variable, String host, int port) {
        if (host == null || host.isEmpty()) {
            findings.add(pod.where() + ": " + variable + " has no valid host name");
            return;
        }
        if (!Manifests.inCluster(host)) {
            return;
        }
        Map<String, Object> service = manifests.serviceByHost(host).orElse(null);
        if (service == null) {
            findings.add(pod.where() + ": " + variable + " names " + host + ", which is no Service of the deployment");
            return;
        }
        Object targetPort = null;
        for (Object node : Yamls.listAt(service, "spec.ports")) {
            if (((Number) Yamls.at(node, "port")).intValue() == port) {
                targetPort = Yamls.at(node, "targetPort") != null ? Yamls.at(node, "targetPort") : port;
            }
        }
        if (targetPort == null) {
            findings.add(pod.where() + ": " + variable + " uses port " + port + " of Service " + Manifests.name(service)
                    + ", which does not expose it");
        } else if (variable.equals("SESSION_SERVICE_URL")) {
            internalApi(pod, service, targetPort);
        }
    }

    /** session-service answers /internal/** on its internal API port only (404 elsewhere). */
    private void internalApi(Pod pod, Map<String, Object> service, Object targetPort) {
        Map<String, String> selector = Yamls.strings(Yamls.at(service, "spec.selector"));
        for (Pod target : pods) {
            if (!Manifests.selects(selector, Manifests.podLabels(target.workload()))) {
                continue;
            }
            Integer reached = Manifests.containerPort(target.container(), targetPort);
            int internal = target.service().internalApiPort(literals(target)).orElse(-1);
            if (reached == null || reached != internal) {
                findings.add(pod.where() + ": SESSION_SERVICE_URL leads to port " + reached + " of " + target.where()
                        + ", not its internal API port " + internal + " (INTERNAL_API_PORT)");
            }
        }
    }

    /** An in-cluster PostgreSQL must create the database and user the service is given, with the same secret. */
    private void database(Pod pod, Map<String, String> literals) {
        String url = literals.get("POSTGRES_URL");
        if (url == null) {
            return;
        }
        URI uri = URI.create(url.substring("jdbc:".length()));
        Map<String, Object> service = manifests.serviceByHost(uri.getHost()).orElse(null);
        if (service == null) {
            return;
        }
        for (Map<String, Object> workload :
                manifests.workloadsSelectedBy(Yamls.strings(Yamls.at(service, "spec.selector")))) {
            for (Map<String, Object> container : Manifests.containers(workload)) {
                ContainerEnv db = ContainerEnv.of(container, manifests, context.scriptSecrets(), "", new ArrayList<>());
                String where = pod.where() + " -> " + Manifests.id(workload);
                if (!uri.getPath().substring(1).equals(db.values().get("POSTGRES_DB"))) {
                    findings.add(where + ": POSTGRES_URL database " + uri.getPath() + " is not POSTGRES_DB");
                }
                if (!String.valueOf(literals.get("POSTGRES_USER"))
                        .equals(db.values().get("POSTGRES_USER"))) {
                    findings.add(where + ": POSTGRES_USER differs");
                }
                if (!String.valueOf(pod.env().values().get("POSTGRES_PASSWORD"))
                        .equals(db.values().get("POSTGRES_PASSWORD"))) {
                    findings.add(where + ": POSTGRES_PASSWORD does not come from the same secret key");
                }
            }
        }
    }

    private void sharedSettings() {
        TreeSet<String> shared = new TreeSet<>();
        pods.forEach(p -> shared.addAll(p.service().topicVariables()));
        shared.add("KAFKA_BOOTSTRAP_SERVERS");
        for (String variable : shared) {
            Map<String, String> values = new TreeMap<>();
            for (Pod pod : pods) {
                String value = pod.env().values().get(variable);
                values.put(
                        pod.where(),
                        value != null ? value : "default " + pod.service().defaultOf(variable));
            }
            if (new TreeSet<>(values.values()).size() > 1) {
                findings.add("services disagree on " + variable + ": " + values);
            }
        }
    }

    /** Node ids name downlink topics: from the pod name of a StatefulSet (stable, unique), or unique literals. */
    private void nodeIds() {
        Map<String, String> literalOwners = new TreeMap<>();
        for (Pod pod : pods) {
            if (!pod.service().reads("TRIBUTARY_NODE_ID")) {
                continue;
            }
            String value = pod.env().values().get("TRIBUTARY_NODE_ID");
            boolean podName = "fieldRef metadata.name".equals(value);
            if (podName && !Manifests.kind(pod.workload()).equals("StatefulSet")) {
                findings.add(pod.where() + ": node id from the pod name, but a " + Manifests.kind(pod.workload())
                        + "'s pod names change on every restart (use a StatefulSet)");
            } else if (!podName) {
                Object replicas = Yamls.at(pod.workload(), "spec.replicas");
                if (replicas == null || ((Number) replicas).intValue() != 1) {
                    findings.add(pod.where() + ": a literal TRIBUTARY_NODE_ID shared by " + replicas + " replicas");
                }
                String previous = literalOwners.putIfAbsent(String.valueOf(value), pod.where());
                if (previous != null) {
                    findings.add(pod.where() + " and " + previous + " share TRIBUTARY_NODE_ID " + value);
                }
            }
        }
    }
}
