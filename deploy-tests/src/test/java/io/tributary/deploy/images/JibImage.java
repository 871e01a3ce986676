package io.tributary.deploy.images;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The Jib configuration of one module's pom: the jib-maven-plugin of {@code <build><plugins>}, or of the
 * {@code images} profile where the module keeps it there (deploy-tests' perf-tests runner image).
 */
public record JibImage(
        String pluginVersion,
        String from,
        String to,
        String mainClass,
        List<String> jvmFlags,
        List<Integer> ports,
        Map<String, String> environment,
        String user,
        Map<String, String> labels,
        List<String> entrypoint,
        String workingDirectory,
        List<String> extraIncludes,
        String extraFrom,
        String extraInto,
        boolean tarBoundToPackageInImagesProfile) {

    private static final String JIB = "jib-maven-plugin";

    /** The repository of the target image ({@code tributary/transport-service}), without tag. */
    public String repository() {
        int colon = to.lastIndexOf(':');
        return colon > to.lastIndexOf('/') ? to.substring(0, colon) : to;
    }

    /** The tag of the target image as written in the pom (an expression like ${project.version}). */
    public String tag() {
        int colon = to.lastIndexOf(':');
        return colon > to.lastIndexOf('/') ? to.substring(colon + 1) : "latest";
    }

    public static JibImage fromPom(Path pom) {
        Document document = parse(pom);
        Element project = document.getDocumentElement();
        Element plugin = jibPlugin(child(project, "build"));
        Element imagesProfile = null;
        for (Element profile : children(child(project, "profiles"), "profile")) {
            if ("images".equals(text(child(profile, "id")))) {
                imagesProfile = profile;
            }
        }
        Element profilePlugin = imagesProfile == null ? null : jibPlugin(child(imagesProfile, "build"));
        if (plugin == null) {
            plugin = profilePlugin;
        }
        if (plugin == null) {
            throw new IllegalStateException(pom + " configures no " + JIB);
        }
        boolean tarAtPackage = false;
        if (profilePlugin != null) {
            for (Element execution : children(child(profilePlugin, "executions"), "execution")) {
                boolean packagePhase = "package".equals(text(child(execution, "phase")));
                boolean buildTar = children(child(execution, "goals"), "goal").stream()
                        .anyMatch(goal -> "buildTar".equals(text(goal)));
                tarAtPackage |= packagePhase && buildTar;
            }
        }
        Element configuration = child(plugin, "configuration");
        Element container = child(configuration, "container");
        Element extra = child(child(child(configuration, "extraDirectories"), "paths"), "path");
        List<Integer> ports = new ArrayList<>();
        for (Element port : children(child(container, "ports"), "port")) {
            ports.add(Integer.parseInt(text(port)));
        }
        String includes = text(child(extra, "includes"));
        return new JibImage(
                text(child(plugin, "version")),
                text(child(child(configuration, "from"), "image")),
                text(child(child(configuration, "to"), "image")),
                text(child(container, "mainClass")),
                texts(child(container, "jvmFlags")),
                ports,
                entries(child(container, "environment")),
                text(child(container, "user")),
                entries(child(container, "labels")),
                entrypoint(child(container, "entrypoint")),
                text(child(container, "workingDirectory")),
                includes == null ? List.of() : List.of(includes.split("\\s*,\\s*")),
                text(child(extra, "from")),
                text(child(extra, "into")),
                tarAtPackage);
    }

    private static List<String> entrypoint(Element element) {
        if (element == null) {
            return List.of();
        }
        List<String> entries = texts(element);
        return entries.isEmpty() ? List.of(text(element)) : entries;
    }

    private static Element jibPlugin(Element build) {
        for (Element plugin : children(child(build, "plugins"), "plugin")) {
            if (JIB.equals(text(child(plugin, "artifactId")))) {
                return plugin;
            }
        }
        return null;
    }

    private static Document parse(Path pom) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return factory.newDocumentBuilder().parse(pom.toFile());
        } catch (Exception e) {
            throw new IllegalStateException("cannot read " + pom, e);
        }
    }

    private static Element child(Element parent, String name) {
        if (parent == null) {
            return null;
        }
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && element.getTagName().equals(name)) {
                return element;
            }
        }
        return null;
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> result = new ArrayList<>();
        if (parent != null) {
            for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
                if (node instanceof Element element
                        && (name == null || element.getTagName().equals(name))) {
                    result.add(element);
                }
            }
        }
        return result;
    }

    private static String text(Element element) {
        return element == null ? null : element.getTextContent().trim();
    }

    private static List<String> texts(Element parent) {
        return children(parent, null).stream().map(JibImage::text).toList();
    }

    private static Map<String, String> entries(Element parent) {
        Map<String, String> result = new LinkedHashMap<>();
        for (Element element : children(parent, null)) {
            result.put(element.getTagName(), text(element));
        }
        return result;
    }
}
