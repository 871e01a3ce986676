package io.tributary.deploy.k8s;

import io.tributary.deploy.support.Repo;
import io.tributary.deploy.support.Yamls;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Renders a kustomization offline, for the subset of kustomize the repository uses: {@code resources} (files and
 * kustomization directories), {@code namespace}, {@code configMapGenerator} and {@code secretGenerator} with
 * {@code literals}, {@code envs} and {@code files} (a file's name is its key, no {@code key=path}) and
 * {@code behavior: create|merge}. Any other field fails the rendering, so this
 * never silently differs from kustomize. Generated names carry no hash suffix (kustomize appends one and rewrites
 * the references; the checks resolve references by the generator's name).
 */
public final class Kustomize {

    private static final Set<String> SUPPORTED =
            Set.of("apiVersion", "kind", "namespace", "resources", "configMapGenerator", "secretGenerator");
    private static final Set<String> GENERATOR_FIELDS = Set.of("name", "behavior", "literals", "envs", "files");
    /** Kinds kustomize leaves without a namespace. */
    static final Set<String> CLUSTER_SCOPED = Set.of(
            "Namespace",
            "StorageClass",
            "ClusterRole",
            "ClusterRoleBinding",
            "PriorityClass",
            "CustomResourceDefinition",
            "PersistentVolume");

    private Kustomize() {}

    public static List<Map<String, Object>> render(Path directory) {
        Path file = directory.resolve("kustomization.yaml");
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(directory + " has no kustomization.yaml");
        }
        Map<String, Object> kustomization = Yamls.load(Repo.read(file));
        for (String key : kustomization.keySet()) {
            if (!SUPPORTED.contains(key)) {
                throw new IllegalStateException(file + ": '" + key + "' is not supported by the offline renderer "
                        + SUPPORTED + ": extend Kustomize.java or keep the kustomization simpler");
            }
        }
        List<Map<String, Object>> objects = new ArrayList<>();
        for (Object entry : Yamls.list(kustomization.get("resources"))) {
            Path resource = directory.resolve(String.valueOf(entry)).normalize();
            if (Files.isDirectory(resource)) {
                objects.addAll(render(resource));
            } else {
                objects.addAll(Yamls.loadAll(Repo.read(resource)));
            }
        }
        generate(directory, kustomization, "configMapGenerator", "ConfigMap", objects);
        generate(directory, kustomization, "secretGenerator", "Secret", objects);
        Object namespace = kustomization.get("namespace");
        if (namespace != null) {
            for (Map<String, Object> object : objects) {
                if (!CLUSTER_SCOPED.contains(String.valueOf(object.get("kind")))) {
                    Yamls.map(object.computeIfAbsent("metadata", k -> new LinkedHashMap<>()))
                            .put("namespace", namespace);
                }
            }
        }
        return objects;
    }

    private static void generate(
            Path directory,
            Map<String, Object> kustomization,
            String field,
            String kind,
            List<Map<String, Object>> objects) {
        for (Object node : Yamls.list(kustomization.get(field))) {
            Map<String, Object> generator = Yamls.map(node);
            for (String key : generator.keySet()) {
                if (!GENERATOR_FIELDS.contains(key)) {
                    throw new IllegalStateException(directory + ": generator field '" + key + "' is not supported");
                }
            }
            String name = String.valueOf(generator.get("name"));
            Map<String, String> data = new LinkedHashMap<>();
            for (Object env : Yamls.list(generator.get("envs"))) {
                for (String line :
                        Repo.read(directory.resolve(String.valueOf(env))).split("\n")) {
                    if (!line.isBlank() && !line.trim().startsWith("#")) {
                        put(data, line, directory);
                    }
                }
            }
            for (Object file : Yamls.list(generator.get("files"))) {
                Path path = directory.resolve(String.valueOf(file)).normalize();
                if (!path.startsWith(directory.normalize())
                        || String.valueOf(file).contains("=")) {
                    throw new IllegalStateException(directory + ": file " + file + " is outside the kustomization"
                            + " (kustomize refuses it) or has a key=path form the renderer does not support");
                }
                data.put(path.getFileName().toString(), Repo.read(path));
            }
            for (Object literal : Yamls.list(generator.get("literals"))) {
                put(data, String.valueOf(literal), directory);
            }
            String behavior = String.valueOf(generator.getOrDefault("behavior", "create"));
            Map<String, Object> existing = objects.stream()
                    .filter(o -> kind.equals(o.get("kind")) && name.equals(Yamls.text(o, "metadata.name")))
                    .findFirst()
                    .orElse(null);
            switch (behavior) {
                case "create" -> {
                    if (existing != null) {
                        throw new IllegalStateException(directory + ": " + kind + " " + name + " already exists");
                    }
                    objects.add(object(kind, name, data));
                }
                case "merge" -> {
                    if (existing == null) {
                        throw new IllegalStateException(directory + ": no " + kind + " " + name + " to merge into");
                    }
                    Map<String, Object> existingData = Yamls.map(existing.get("data"));
                    existingData.putAll(kind.equals("Secret") ? encoded(data) : data);
                    existing.put("data", existingData);
                }
                default -> throw new IllegalStateException(directory + ": behavior " + behavior + " is not supported");
            }
        }
    }

    private static void put(Map<String, String> data, String assignment, Path directory) {
        int equals = assignment.indexOf('=');
        if (equals <= 0) {
            throw new IllegalStateException(directory + ": not KEY=value: " + assignment);
        }
        data.put(assignment.substring(0, equals).trim(), assignment.substring(equals + 1));
    }

    private static Map<String, Object> object(String kind, String name, Map<String, String> data) {
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("apiVersion", "v1");
        object.put("kind", kind);
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", name);
        object.put("metadata", metadata);
        if (kind.equals("Secret")) {
            object.put("type", "Opaque");
            object.put("data", encoded(data));
        } else {
            object.put("data", new LinkedHashMap<>(data));
        }
        return object;
    }

    private static Map<String, Object> encoded(Map<String, String> data) {
        Map<String, Object> result = new LinkedHashMap<>();
        data.forEach((k, v) -> result.put(k, Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.UTF_8))));
        return result;
    }
}
