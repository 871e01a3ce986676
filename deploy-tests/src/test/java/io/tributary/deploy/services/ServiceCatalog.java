package io.tributary.deploy.services;

import io.tributary.deploy.images.JibImage;
import io.tributary.deploy.support.Repo;
import io.tributary.deploy.support.Yamls;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/** The three services as their own files describe them: application.yml placeholders and Jib image names. */
public final class ServiceCatalog {

    public static final List<String> MODULES = List.of("transport-service", "routing-service", "session-service");

    private final Map<String, ServiceSettings> byModule;

    private ServiceCatalog(Map<String, ServiceSettings> byModule) {
        this.byModule = byModule;
    }

    public static ServiceCatalog load() {
        Path root = Repo.root();
        Map<String, ServiceSettings> services = new LinkedHashMap<>();
        for (String module : MODULES) {
            String yaml = Repo.read(root.resolve(module).resolve("src/main/resources/application.yml"));
            JibImage image = JibImage.fromPom(root.resolve(module).resolve("pom.xml"));
            services.put(
                    module,
                    settings(
                            module,
                            image.repository(),
                            yaml,
                            root.resolve(module).resolve("src/main/java")));
        }
        return new ServiceCatalog(services);
    }

    static ServiceSettings settings(String module, String image, String applicationYaml, Path sources) {
        Map<String, String> variables = new LinkedHashMap<>();
        TreeSet<String> topics = new TreeSet<>();
        walk(Yamls.load(applicationYaml), false, variables, topics);
        Object shutdown = Yamls.at(Yamls.load(applicationYaml), "spring.lifecycle.timeout-per-shutdown-phase");
        int shutdownSeconds = shutdown == null
                ? 30
                : (int) Duration.parse("PT" + shutdown.toString().toUpperCase(Locale.ROOT))
                        .toSeconds();
        return new ServiceSettings(module, image, variables, topics, shutdownSeconds, sources);
    }

    /**
     * Every environment variable a Spring configuration file reads, with its default ("" when none), in file order;
     * every document of a multi-document file.
     */
    public static Map<String, String> variablesIn(String applicationYaml) {
        Map<String, String> variables = new LinkedHashMap<>();
        for (Map<String, Object> document : Yamls.loadAll(applicationYaml)) {
            walk(document, false, variables, new TreeSet<>());
        }
        return variables;
    }

    private static void walk(Object node, boolean underTopics, Map<String, String> variables, TreeSet<String> topics) {
        if (node instanceof Map<?, ?> map) {
            map.forEach((key, value) -> walk(value, underTopics || "topics".equals(key), variables, topics));
        } else if (node instanceof List<?> list) {
            list.forEach(item -> walk(item, underTopics, variables, topics));
        } else if (node != null) {
            Map<String, String> found = Placeholders.in(node.toString());
            found.forEach(variables::putIfAbsent);
            if (underTopics) {
                topics.addAll(found.keySet());
            }
        }
    }

    public ServiceSettings module(String module) {
        ServiceSettings settings = byModule.get(module);
        if (settings == null) {
            throw new IllegalArgumentException("no service module " + module);
        }
        return settings;
    }

    public List<ServiceSettings> all() {
        return List.copyOf(byModule.values());
    }

    /** The service an image reference (repository[:tag]) runs, if it is one of ours. */
    public Optional<ServiceSettings> byImage(String imageReference) {
        String repository = repositoryOf(imageReference);
        return byModule.values().stream()
                .filter(s -> s.image().equals(repository))
                .findFirst();
    }

    /** The repository part of an image reference: no tag, no digest (a registry port's colon is kept). */
    public static String repositoryOf(String imageReference) {
        String reference = imageReference;
        int digest = reference.indexOf('@');
        if (digest >= 0) {
            reference = reference.substring(0, digest);
        }
        int colon = reference.lastIndexOf(':');
        return colon > reference.lastIndexOf('/') ? reference.substring(0, colon) : reference;
    }

    /** The tag of an image reference, or null. */
    public static String tagOf(String imageReference) {
        String reference = imageReference.contains("@")
                ? imageReference.substring(0, imageReference.indexOf('@'))
                : imageReference;
        int colon = reference.lastIndexOf(':');
        return colon > reference.lastIndexOf('/') ? reference.substring(colon + 1) : null;
    }
}
