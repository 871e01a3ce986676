package io.tributary.deploy.compose;

import io.tributary.deploy.support.Repo;
import io.tributary.deploy.support.Yamls;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** docker-compose.yml as Compose sees it: .env interpolated, YAML merge keys resolved, short syntaxes read. */
public record ComposeProject(
        Map<String, ComposeService> services,
        Set<String> declaredVolumes,
        Map<String, String> dotEnv,
        Set<String> usedVariables,
        List<String> problems) {

    /**
     * One published port: {@code [hostIp:]host:container}; an empty {@code hostIp} is every interface of the host,
     * as Docker binds it.
     */
    public record Port(String hostIp, String published, int target) {}

    public record ComposeService(
            String name,
            String image,
            String hostname,
            Map<String, String> environment,
            Map<String, String> explicitEnvironment,
            List<String> envFiles,
            List<Port> ports,
            Map<String, String> dependsOn,
            List<String> healthcheck,
            List<String> volumes,
            List<String> command) {}

    public static ComposeProject load() {
        return parse(Repo.read("docker-compose.yml"), Repo.read(".env"));
    }

    /** The env_file entries as {@link ComposeSecrets} writes them (never the files themselves: they are secret). */
    public static ComposeProject parse(String composeYaml, String dotEnvText) {
        return parse(composeYaml, dotEnvText, ComposeSecrets.generatedEnvFiles());
    }

    /** @param envFiles the contents of the env files the services read, by path as written in docker-compose.yml */
    public static ComposeProject parse(
            String composeYaml, String dotEnvText, Map<String, Map<String, String>> envFiles) {
        Map<String, String> dotEnv = dotEnv(dotEnvText);
        Interpolation interpolation = new Interpolation(dotEnv);
        Map<String, Object> root = Yamls.map(interpolate(Yamls.load(composeYaml), interpolation));
        Map<String, ComposeService> services = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>(interpolation.problems());
        Yamls.mapAt(root, "services")
                .forEach((name, node) -> services.put(name, service(name, Yamls.map(node), envFiles, problems)));
        return new ComposeProject(
                services, new TreeSet<>(Yamls.mapAt(root, "volumes").keySet()), dotEnv, interpolation.used(), problems);
    }

    static Map<String, String> dotEnv(String text) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            String trimmed = line.trim();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            int equals = trimmed.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException(".env: not NAME=value: " + line);
            }
            String value = trimmed.substring(equals + 1).trim();
            if (value.length() >= 2
                    && ((value.startsWith("\"") && value.endsWith("\""))
                            || (value.startsWith("'") && value.endsWith("'")))) {
                value = value.substring(1, value.length() - 1);
            }
            values.put(trimmed.substring(0, equals).trim(), value);
        }
        return values;
    }

    private static Object interpolate(Object node, Interpolation interpolation) {
        if (node instanceof Map<?, ?> map) {
            Map<String, Object> result = new LinkedHashMap<>();
            map.forEach((key, value) -> result.put(String.valueOf(key), interpolate(value, interpolation)));
            return result;
        }
        if (node instanceof List<?> list) {
            return list.stream().map(item -> interpolate(item, interpolation)).toList();
        }
        return node instanceof String text ? interpolation.apply(text) : node;
    }

    private static ComposeService service(
            String name, Map<String, Object> node, Map<String, Map<String, String>> envFiles, List<String> problems) {
        Map<String, String> explicit = new LinkedHashMap<>();
        Object env = node.get("environment");
        if (env instanceof List<?> entries) {
            for (Object entry : entries) {
                String text = String.valueOf(entry);
                int equals = text.indexOf('=');
                explicit.put(
                        equals < 0 ? text : text.substring(0, equals), equals < 0 ? "" : text.substring(equals + 1));
            }
        } else {
            explicit.putAll(Yamls.strings(env));
        }
        // env_file first, environment wins (Compose's precedence).
        List<String> files = new ArrayList<>();
        Object envFileNode = node.get("env_file");
        for (Object entry :
                envFileNode instanceof List<?> list ? list : envFileNode == null ? List.of() : List.of(envFileNode)) {
            files.add(entry instanceof Map<?, ?> map ? String.valueOf(map.get("path")) : String.valueOf(entry));
        }
        Map<String, String> environment = new LinkedHashMap<>();
        for (String file : files) {
            Map<String, String> entries = envFiles.get(file);
            if (entries == null) {
                problems.add(name + ": env_file " + file + " is none of the files " + ComposeSecrets.SCRIPT + " writes "
                        + envFiles.keySet());
            } else {
                environment.putAll(entries);
            }
        }
        environment.putAll(explicit);
        List<Port> ports = new ArrayList<>();
        for (Object port : Yamls.list(node.get("ports"))) {
            ports.add(port(port));
        }
        Map<String, String> dependsOn = new LinkedHashMap<>();
        Object depends = node.get("depends_on");
        if (depends instanceof List<?> names) {
            names.forEach(n -> dependsOn.put(String.valueOf(n), "service_started"));
        } else {
            Yamls.map(depends)
                    .forEach((target, options) -> dependsOn.put(
                            target, String.valueOf(Yamls.map(options).getOrDefault("condition", "service_started"))));
        }
        Object test = Yamls.at(node, "healthcheck.test");
        List<String> healthcheck = test instanceof List<?> parts
                ? parts.stream().map(String::valueOf).toList()
                : test == null ? List.of() : List.of("CMD-SHELL", String.valueOf(test));
        List<String> volumes =
                Yamls.list(node.get("volumes")).stream().map(String::valueOf).toList();
        Object commandNode = node.get("command");
        List<String> command = commandNode instanceof List<?> parts
                ? parts.stream().map(String::valueOf).toList()
                : commandNode == null ? List.of() : List.of(String.valueOf(commandNode));
        return new ComposeService(
                name,
                (String) node.get("image"),
                (String) node.get("hostname"),
                environment,
                explicit,
                files,
                ports,
                dependsOn,
                healthcheck,
                volumes,
                command);
    }

    private static Port port(Object node) {
        if (node instanceof Map<?, ?> map) {
            Object hostIp = map.get("host_ip");
            return new Port(
                    hostIp == null ? "" : String.valueOf(hostIp),
                    String.valueOf(map.get("published")),
                    Integer.parseInt(String.valueOf(map.get("target"))));
        }
        String text = String.valueOf(node);
        if (text.contains("/")) {
            text = text.substring(0, text.indexOf('/'));
        }
        String hostIp = "";
        if (text.startsWith("[") && text.contains("]:")) {
            hostIp = text.substring(1, text.indexOf(']'));
            text = text.substring(text.indexOf("]:") + 2);
        }
        String[] parts = text.split(":");
        if (parts.length == 3) {
            hostIp = parts[0];
        }
        String published = parts.length >= 2 ? parts[parts.length - 2] : "";
        return new Port(hostIp, published, Integer.parseInt(parts[parts.length - 1]));
    }
}
