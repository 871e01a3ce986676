package io.tributary.deploy.compose;

import io.tributary.deploy.compose.ComposeProject.ComposeService;
import io.tributary.deploy.compose.ComposeProject.Port;
import io.tributary.deploy.compose.HaproxyConfig.Server;
import io.tributary.deploy.services.ServiceCatalog;
import io.tributary.deploy.services.ServiceSettings;
import io.tributary.deploy.support.Repo;
import java.net.URI;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * How the compose services reach each other: every address a service is given names a compose service that
 * listens there and that it waits for; dependencies exist and can become healthy; host ports do not clash;
 * volumes are declared; HAProxy balances exactly the transport nodes on their MQTT and health ports.
 */
final class ComposeWiringChecks {

    /** Ports of third-party images, as their documentation gives them. */
    private static final Map<String, Integer> IMAGE_PORTS = Map.of("postgres", 5432, "redis", 6379);

    private static final String HAPROXY_CFG = "./deploy/haproxy/haproxy.cfg";
    private static final String HAPROXY_MOUNT = "/usr/local/etc/haproxy/haproxy.cfg";

    private final ComposeProject project;
    private final HaproxyConfig haproxy;
    private final Map<String, ServiceSettings> tributary;
    private final List<String> findings = new ArrayList<>();

    private ComposeWiringChecks(ComposeProject project, HaproxyConfig haproxy, Map<String, ServiceSettings> tributary) {
        this.project = project;
        this.haproxy = haproxy;
        this.tributary = tributary;
    }

    static List<String> check(ComposeProject project, HaproxyConfig haproxy, Map<String, ServiceSettings> tributary) {
        ComposeWiringChecks checks = new ComposeWiringChecks(project, haproxy, tributary);
        checks.addresses();
        checks.postgres();
        checks.dependencies();
        checks.hostPorts();
        checks.volumes();
        checks.haproxy();
        return checks.findings;
    }

    private void addresses() {
        tributary.forEach((name, settings) -> project.services()
                .get(name)
                .environment()
                .forEach((variable, value) -> {
                    if (variable.endsWith("_URL")) {
                        URI uri = io.tributary.deploy.support.UrlPasswords.withoutUserInfo(value);
                        reaches(name, variable, uri.getHost(), uri.getPort());
                    } else if (variable.endsWith("_SERVERS")) {
                        for (String address : value.split(",")) {
                            int colon = address.lastIndexOf(':');
                            reaches(
                                    name,
                                    variable,
                                    address.substring(0, colon).trim(),
                                    Integer.parseInt(address.substring(colon + 1)));
                        }
                    }
                }));
    }

    private void reaches(String from, String variable, String host, int port) {
        if (host == null || host.isEmpty()) {
            findings.add(from + ": " + variable + " has no valid host name");
            return;
        }
        ComposeService target = project.services().get(host);
        if (target == null) {
            findings.add(from + ": " + variable + " names host " + host + ", which is no compose service");
            return;
        }
        if (!project.services().get(from).dependsOn().containsKey(host)) {
            findings.add(from + ": " + variable + " uses " + host + " but " + from + " does not depend_on it");
        }
        Set<Integer> listening = listeningPorts(host, target);
        if (!listening.contains(port)) {
            findings.add(
                    from + ": " + variable + " uses port " + port + " of " + host + ", which listens on " + listening);
        }
        ServiceSettings settings = tributary.get(host);
        if (variable.equals("SESSION_SERVICE_URL") && settings != null) {
            int internal = settings.internalApiPort(target.environment()).orElse(-1);
            if (port != internal) {
                findings.add(from + ": SESSION_SERVICE_URL uses port " + port + " of " + host + ", not its internal API"
                        + " port " + internal + " (INTERNAL_API_PORT), the only one answering /internal/**");
            }
        }
    }

    /** Container ports a compose service listens on, from its own settings. */
    private Set<Integer> listeningPorts(String name, ComposeService service) {
        Set<Integer> ports = new TreeSet<>();
        ServiceSettings settings = tributary.get(name);
        String repository = ServiceCatalog.repositoryOf(service.image());
        if (settings != null) {
            ports.addAll(settings.httpPorts(service.environment()));
            if (settings.reads("MQTT_PORT")) {
                ports.add(Integer.parseInt(settings.effective(service.environment(), "MQTT_PORT")));
            }
        } else if (repository.equals("apache/kafka")) {
            for (String listener :
                    service.environment().getOrDefault("KAFKA_LISTENERS", "").split(",")) {
                // kafka-setup runs the image's tools only: no listener.
                if (listener.isEmpty()) {
                    continue;
                }
                ports.add(Integer.parseInt(listener.substring(listener.lastIndexOf(':') + 1)));
            }
        } else if (repository.equals("haproxy")) {
            ports.addAll(haproxy.allBindPorts());
        } else if (IMAGE_PORTS.containsKey(repository)) {
            ports.add(IMAGE_PORTS.get(repository));
        }
        return ports;
    }

    private void postgres() {
        tributary.forEach((name, settings) -> {
            Map<String, String> env = project.services().get(name).environment();
            String url = env.get("POSTGRES_URL");
            if (url == null) {
                return;
            }
            URI uri = URI.create(url.substring("jdbc:".length()));
            ComposeService database = project.services().get(uri.getHost());
            if (database == null) {
                return;
            }
            Map<String, String> db = database.environment();
            String dbName = uri.getPath().substring(1);
            if (!dbName.equals(db.getOrDefault("POSTGRES_DB", db.get("POSTGRES_USER")))) {
                findings.add(
                        name + ": POSTGRES_URL database " + dbName + " is not the one " + uri.getHost() + " creates");
            }
            for (String variable : List.of("POSTGRES_USER", "POSTGRES_PASSWORD")) {
                if (!String.valueOf(env.get(variable)).equals(db.get(variable))) {
                    findings.add(name + ": " + variable + " differs from " + uri.getHost() + "'s");
                }
            }
        });
    }

    private void dependencies() {
        project.services()
                .forEach((name, service) -> service.dependsOn().forEach((target, condition) -> {
                    ComposeService dependency = project.services().get(target);
                    if (dependency == null) {
                        findings.add(name + ": depends_on unknown service " + target);
                    } else if (condition.equals("service_healthy")
                            && dependency.healthcheck().isEmpty()) {
                        findings.add(name + ": waits for " + target + " to be healthy, but it has no healthcheck");
                    }
                }));
    }

    private void hostPorts() {
        Map<String, String> owners = new HashMap<>();
        project.services().forEach((name, service) -> {
            Set<Integer> listening = listeningPorts(name, service);
            for (Port port : service.ports()) {
                String previous = owners.putIfAbsent(port.published(), name);
                if (previous != null) {
                    findings.add(name + " and " + previous + " both publish host port " + port.published());
                }
                if (!tributary.containsKey(name) && !listening.isEmpty() && !listening.contains(port.target())) {
                    findings.add(name + ": publishes container port " + port.target() + " but listens on " + listening);
                }
            }
        });
    }

    private void volumes() {
        Set<String> used = new TreeSet<>();
        project.services().forEach((name, service) -> {
            for (String volume : service.volumes()) {
                String source = volume.substring(0, volume.indexOf(':'));
                if (source.startsWith(".") || source.startsWith("/")) {
                    if (!Files.exists(Repo.path(source))) {
                        findings.add(name + ": bind-mounts " + source + ", which does not exist");
                    }
                } else {
                    used.add(source);
                    if (!project.declaredVolumes().contains(source)) {
                        findings.add(name + ": uses volume " + source + ", not declared under volumes:");
                    }
                }
            }
        });
        Set<String> unused = new TreeSet<>(project.declaredVolumes());
        unused.removeAll(used);
        if (!unused.isEmpty()) {
            findings.add("volumes declared but never mounted: " + unused);
        }
    }

    /**
     * The ports a transport listens on for MQTT: plain always; WebSocket when its port is not 0; TLS and secure
     * WebSocket only where the deployment wires a certificate (gives MQTT_TLS_CERT, possibly from .env, where it may
     * be left empty until the operator adds the files), secure WebSocket only when its port is set explicitly.
     */
    static Set<Integer> listenerPorts(ServiceSettings settings, Map<String, String> env) {
        Set<Integer> ports = new TreeSet<>();
        ports.add(Integer.parseInt(settings.effective(env, "MQTT_PORT")));
        boolean tlsWired = env.containsKey("MQTT_TLS_CERT");
        addPort(ports, settings, env, "MQTT_WS_PORT", true);
        addPort(ports, settings, env, "MQTT_TLS_PORT", tlsWired);
        addPort(ports, settings, env, "MQTT_WSS_PORT", tlsWired && env.containsKey("MQTT_WSS_PORT"));
        return ports;
    }

    private static void addPort(
            Set<Integer> ports, ServiceSettings settings, Map<String, String> env, String variable, boolean wired) {
        if (wired && settings.reads(variable)) {
            String value = settings.effective(env, variable);
            if (!value.isBlank() && Integer.parseInt(value) > 0) {
                ports.add(Integer.parseInt(value));
            }
        }
    }

    private void haproxy() {
        Map<String, ServiceSettings> transports = new java.util.TreeMap<>();
        tributary.forEach((name, settings) -> {
            if (settings.reads("MQTT_PORT")) {
                transports.put(name, settings);
            }
        });
        ComposeService balancer = project.services().values().stream()
                .filter(s -> ServiceCatalog.repositoryOf(s.image()).equals("haproxy"))
                .findFirst()
                .orElse(null);
        if (balancer == null) {
            findings.add("no HAProxy in front of the transport nodes");
            return;
        }
        if (!balancer.volumes().contains(HAPROXY_CFG + ":" + HAPROXY_MOUNT + ":ro")) {
            findings.add(balancer.name() + ": does not mount " + HAPROXY_CFG + " read-only at " + HAPROXY_MOUNT);
        }
        for (Port port : balancer.ports()) {
            List<String> frontends = haproxy.frontendsBinding(port.target());
            if (frontends.isEmpty()) {
                findings.add(balancer.name() + ": publishes " + port.target() + ", which no HAProxy frontend binds");
                continue;
            }
            String backend = haproxy.defaultBackend(frontends.get(0));
            Set<String> servers = new TreeSet<>();
            for (Server server : haproxy.servers(backend)) {
                servers.add(server.host());
                ServiceSettings settings = transports.get(server.host());
                if (settings == null) {
                    findings.add("haproxy.cfg server " + server.name() + " is no compose transport service");
                    continue;
                }
                Map<String, String> env = project.services().get(server.host()).environment();
                if (!listenerPorts(settings, env).contains(server.port())) {
                    findings.add("haproxy.cfg server " + server.name() + ": port " + server.port()
                            + " is none of its MQTT listener ports " + listenerPorts(settings, env));
                }
                if (server.checkPort() == null || server.checkPort() != settings.managementPort(env)) {
                    findings.add("haproxy.cfg server " + server.name() + ": health check not on its MANAGEMENT_PORT");
                }
                double keepAlive = Double.parseDouble(settings.effective(env, "MQTT_MAX_KEEP_ALIVE"));
                for (String timeout : List.of("client", "server")) {
                    if (haproxy.defaultTimeoutSeconds(timeout) <= 1.5 * keepAlive) {
                        findings.add("haproxy.cfg timeout " + timeout + " would cut idle MQTT connections of "
                                + server.host() + " (MQTT_MAX_KEEP_ALIVE " + (long) keepAlive + " s)");
                    }
                }
                if (!balancer.dependsOn().containsKey(server.host())) {
                    findings.add(balancer.name() + ": does not depend_on " + server.host());
                }
            }
            if (!servers.equals(transports.keySet())) {
                findings.add("haproxy.cfg backend " + backend + " balances " + servers + ", the transport nodes are "
                        + transports.keySet());
            }
            if (!"/actuator/health/readiness".equals(haproxy.httpCheckPath(backend))) {
                findings.add("haproxy.cfg backend " + backend + ": health check is not the readiness probe");
            }
        }
    }
}
