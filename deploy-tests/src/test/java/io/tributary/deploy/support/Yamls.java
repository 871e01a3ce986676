package io.tributary.deploy.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * YAML as plain maps and lists (SnakeYAML's safe constructor: merge keys {@code <<} resolved, no custom types),
 * with small typed accessors so the checks read like the files they check.
 */
public final class Yamls {

    private Yamls() {}

    private static Yaml parser() {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        return new Yaml(new SafeConstructor(options));
    }

    /** One document; a mapping at the top. */
    public static Map<String, Object> load(String text) {
        return map(parser().load(text));
    }

    /** Every non-empty document of a multi-document stream. */
    public static List<Map<String, Object>> loadAll(String text) {
        List<Map<String, Object>> documents = new ArrayList<>();
        for (Object document : parser().loadAll(text)) {
            if (document != null) {
                documents.add(map(document));
            }
        }
        return documents;
    }

    /** The mapping, or an empty one for null; anything else is an error. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> map(Object node) {
        if (node == null) {
            return new LinkedHashMap<>();
        }
        if (!(node instanceof Map<?, ?>)) {
            throw new IllegalArgumentException("expected a mapping, found: " + node);
        }
        return (Map<String, Object>) node;
    }

    /** The sequence, or an empty one for null; anything else is an error. */
    @SuppressWarnings("unchecked")
    public static List<Object> list(Object node) {
        if (node == null) {
            return new ArrayList<>();
        }
        if (!(node instanceof List<?>)) {
            throw new IllegalArgumentException("expected a sequence, found: " + node);
        }
        return (List<Object>) node;
    }

    /** The node at a dotted path of mapping keys, or null where any step is missing. */
    public static Object at(Object root, String path) {
        Object node = root;
        for (String key : path.split("\\.")) {
            if (!(node instanceof Map<?, ?> map)) {
                return null;
            }
            node = map.get(key);
        }
        return node;
    }

    /** The scalar at a path as text (numbers and booleans as written), or null. */
    public static String text(Object root, String path) {
        Object node = at(root, path);
        return node == null ? null : String.valueOf(node);
    }

    public static Map<String, Object> mapAt(Object root, String path) {
        return map(at(root, path));
    }

    public static List<Object> listAt(Object root, String path) {
        return list(at(root, path));
    }

    /** A mapping's entries as text (ConfigMap data, labels, environment maps). */
    public static Map<String, String> strings(Object node) {
        Map<String, String> result = new LinkedHashMap<>();
        map(node).forEach((key, value) -> result.put(key, value == null ? "" : String.valueOf(value)));
        return result;
    }
}
