package io.tributary.perf.scenario;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Reads a scenario YAML file into a {@link Scenario}, collecting every problem with its path before failing. The
 * file format is documented in {@code perf-tests/scenarios/README.md}.
 */
public final class ScenarioLoader {

    /** No single run may hold the machine longer than this, whatever the file says. */
    public static final Duration MAX_PHASE = Duration.ofHours(2);
    /** Upper bound for any group: what one generator process can hold (the issue asks for 500,000+). */
    public static final int MAX_GROUP_COUNT = 2_000_000;

    private static final Set<String> TOP_KEYS = Set.of(
            "name",
            "description",
            "warm-up",
            "duration",
            "drain",
            "source-addresses",
            "io-threads",
            "targets",
            "mqtt-version",
            "tls",
            "end-sessions",
            "publishers",
            "subscribers",
            "connections");
    private static final Set<String> CLIENT_KEYS = Set.of(
            "name",
            "count",
            "client-id",
            "mqtt-version",
            "qos",
            "ramp",
            "clean-start",
            "session-expiry",
            "keep-alive",
            "targets");
    private static final Set<String> PUBLISHER_KEYS = union(
            CLIENT_KEYS,
            Set.of(
                    "topic",
                    "topics-per-publisher",
                    "payload-size",
                    "rate",
                    "phase",
                    "max-inflight",
                    "retain",
                    "filter"));
    private static final Set<String> SUBSCRIBER_KEYS = union(CLIENT_KEYS, Set.of("filter"));

    private ScenarioLoader() {}

    public static Scenario load(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new ScenarioException(
                    file.toString(), List.of("cannot read: " + e.getClass().getSimpleName() + " " + e.getMessage()));
        }
        String name = file.getFileName().toString().replaceFirst("\\.ya?ml$", "");
        return parse(file.toString(), name, text);
    }

    /**
     * Parses scenario text.
     *
     * @param source      where the text came from, for messages
     * @param defaultName name used when the file has none
     */
    public static Scenario parse(String source, String defaultName, String text) {
        Object root;
        try {
            root = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
        } catch (YAMLException e) {
            throw new ScenarioException(source, List.of("not valid YAML: " + e.getMessage()));
        }
        List<String> problems = new ArrayList<>();
        YamlFields top = YamlFields.of("", root, problems);
        top.rejectUnknown(TOP_KEYS);

        String name = top.string("name", defaultName);
        String description = top.string("description", "");
        Duration warmUp = top.duration("warm-up", Duration.ofSeconds(5), MAX_PHASE);
        Duration duration = top.duration("duration", Duration.ofSeconds(30), MAX_PHASE);
        Duration drain = top.duration("drain", Duration.ofSeconds(5), Duration.ofMinutes(10));
        int sourceAddresses = (int) top.integer("source-addresses", 0, 0, 250);
        int ioThreads = (int) top.integer("io-threads", 0, 0, 256);
        boolean endSessions = top.bool("end-sessions", true);
        List<Endpoint> defaultTargets = top.list("targets", Endpoint::parse);
        MqttProtocol defaultProtocol = protocol(top, MqttProtocol.V3_1_1);
        TlsOptions tls = tls(top, problems);

        List<?> publisherNodes = top.nodes("publishers");
        List<PublisherGroup> publishers = publishers(publisherNodes, problems, defaultTargets, defaultProtocol);
        List<?> subscriberNodes = top.nodes("subscribers");
        List<SubscriberGroup> subscribers = subscribers(subscriberNodes, problems, defaultTargets, defaultProtocol);
        List<?> connectionNodes = top.nodes("connections");
        List<ClientSettings> connections = connections(connectionNodes, problems, defaultTargets, defaultProtocol);

        if (publisherNodes.isEmpty() && subscriberNodes.isEmpty() && connectionNodes.isEmpty()) {
            problems.add("the scenario has no publishers, subscribers or connections");
        }
        checkUniqueNames(publishers, subscribers, connections, problems);
        if (!problems.isEmpty()) {
            throw new ScenarioException(source, problems);
        }
        return Scenario.numbered(new Scenario(
                name,
                description,
                warmUp,
                duration,
                drain,
                sourceAddresses,
                ioThreads,
                tls,
                endSessions,
                publishers,
                subscribers,
                connections,
                text));
    }

    /** The valid groups under {@code publishers}; the problems of the others go to {@code problems}. */
    private static List<PublisherGroup> publishers(
            List<?> nodes, List<String> problems, List<Endpoint> defaultTargets, MqttProtocol defaultProtocol) {
        List<PublisherGroup> publishers = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            YamlFields g = YamlFields.of("publishers[" + i + "]", nodes.get(i), problems);
            g.rejectUnknown(PUBLISHER_KEYS);
            PublisherGroup group = publisher(g, "pub" + i, defaultTargets, defaultProtocol);
            if (group != null) {
                publishers.add(group);
            }
        }
        return publishers;
    }

    /** One publisher group, or null when it has problems (already recorded in {@code g}). */
    private static PublisherGroup publisher(
            YamlFields g, String defaultName, List<Endpoint> defaultTargets, MqttProtocol defaultProtocol) {
        ClientSettings client = client(g, defaultName, defaultTargets, defaultProtocol);
        TextTemplate topic = template(g, "topic", null);
        int topicsPerPublisher = (int) g.integer("topics-per-publisher", 1, 1, 1_000_000);
        int payloadSize = (int) g.integer("payload-size", 64, PublisherGroup.MIN_PAYLOAD_SIZE, 16 * 1024 * 1024);
        double rate = g.decimal("rate", 1, 0, 1_000_000);
        PublishPhase phase = phase(g);
        int maxInflight = (int) g.integer("max-inflight", 64, 1, 65_535);
        boolean retain = g.bool("retain", false);
        TextTemplate filter = g.has("filter") ? filter(g) : null;
        if (topic != null && topicsPerPublisher > 1 && !topic.variables().contains(TextTemplate.Variable.K)) {
            g.problem(
                    "topic",
                    "topics-per-publisher is " + topicsPerPublisher
                            + " but the topic does not use {k}, so every slot would be the same topic");
        }
        if (topic != null) {
            String sample = topic.render(new TextTemplate.Values(0, 0, 0, "group", "run"));
            String why = TopicFilterMatcher.topicProblem(sample);
            if (why != null) {
                g.problem("topic", why + " (rendered '" + sample + "')");
            }
        }
        if (client == null || topic == null || (filter == null && g.has("filter"))) {
            return null;
        }
        return new PublisherGroup(
                client, topic, topicsPerPublisher, payloadSize, rate, phase, maxInflight, retain, filter, 0, -1);
    }

    /** The valid groups under {@code subscribers}; the problems of the others go to {@code problems}. */
    private static List<SubscriberGroup> subscribers(
            List<?> nodes, List<String> problems, List<Endpoint> defaultTargets, MqttProtocol defaultProtocol) {
        List<SubscriberGroup> subscribers = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            YamlFields g = YamlFields.of("subscribers[" + i + "]", nodes.get(i), problems);
            g.rejectUnknown(SUBSCRIBER_KEYS);
            ClientSettings client = client(g, "sub" + i, defaultTargets, defaultProtocol);
            TextTemplate filter = filter(g);
            if (client != null && filter != null) {
                subscribers.add(new SubscriberGroup(client, filter, 0));
            }
        }
        return subscribers;
    }

    /** The valid connect-only groups under {@code connections}; the problems of the others go to {@code problems}. */
    private static List<ClientSettings> connections(
            List<?> nodes, List<String> problems, List<Endpoint> defaultTargets, MqttProtocol defaultProtocol) {
        List<ClientSettings> connections = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            YamlFields g = YamlFields.of("connections[" + i + "]", nodes.get(i), problems);
            g.rejectUnknown(CLIENT_KEYS);
            ClientSettings client = client(g, "conn" + i, defaultTargets, defaultProtocol);
            if (client != null) {
                connections.add(client);
            }
        }
        return connections;
    }

    private static ClientSettings client(
            YamlFields g, String defaultName, List<Endpoint> defaultTargets, MqttProtocol defaultProtocol) {
        int problemsBefore = g.problemsSoFar();
        String name = g.string("name", defaultName);
        if (!name.matches("[A-Za-z0-9._-]+")) {
            g.problem("name", "'" + name + "' may only use letters, digits, '.', '_' and '-'");
        }
        int count = (int) g.integer("count", 1, 0, MAX_GROUP_COUNT);
        TextTemplate clientId = template(g, "client-id", "{group}-{run}-{n}");
        MqttProtocol protocol = protocol(g, defaultProtocol);
        int qos = (int) g.integer("qos", 0, 0, 2);
        double ramp = g.decimal("ramp", 1_000, 0, 1_000_000);
        boolean cleanStart = g.bool("clean-start", true);
        Duration sessionExpiry = g.duration("session-expiry", Duration.ZERO, Duration.ofSeconds(0xFFFF_FFFFL));
        Duration keepAlive = g.duration("keep-alive", Duration.ofSeconds(60), Duration.ofSeconds(65_535));
        List<Endpoint> targets = g.has("targets") ? g.list("targets", Endpoint::parse) : defaultTargets;
        if (targets.isEmpty()) {
            g.problem("targets", "no target: give 'targets' in the file or --target on the command line");
        }
        if (protocol == MqttProtocol.V3_1_1 && !sessionExpiry.isZero()) {
            g.problem("session-expiry", "needs mqtt-version 5 (MQTT 3.1.1 has clean-session only)");
        }
        if (clientId != null && clientId.variables().contains(TextTemplate.Variable.K)) {
            g.problem("client-id", "{k} is a publisher topic slot, not usable in a client id");
        }
        if (g.problemsSoFar() > problemsBefore || clientId == null) {
            return null;
        }
        return new ClientSettings(
                name, count, clientId, protocol, qos, ramp, cleanStart, sessionExpiry, keepAlive, targets);
    }

    private static MqttProtocol protocol(YamlFields fields, MqttProtocol fallback) {
        String text = fields.string("mqtt-version", null);
        if (text == null) {
            return fallback;
        }
        try {
            return MqttProtocol.parse(text);
        } catch (IllegalArgumentException e) {
            fields.problem("mqtt-version", e.getMessage());
            return fallback;
        }
    }

    private static PublishPhase phase(YamlFields fields) {
        String text = fields.string("phase", null);
        if (text == null) {
            return PublishPhase.SPREAD;
        }
        try {
            return PublishPhase.parse(text);
        } catch (IllegalArgumentException e) {
            fields.problem("phase", e.getMessage());
            return PublishPhase.SPREAD;
        }
    }

    private static TlsOptions tls(YamlFields top, List<String> problems) {
        if (!top.has("tls")) {
            return TlsOptions.DEFAULT;
        }
        YamlFields tls = YamlFields.of("tls", top.raw("tls"), problems);
        tls.rejectUnknown(Set.of("trust-all", "ca-file"));
        return new TlsOptions(tls.bool("trust-all", false), tls.string("ca-file", null));
    }

    private static TextTemplate template(YamlFields fields, String key, String fallback) {
        String text = fields.string(key, fallback);
        if (text == null) {
            fields.problem(key, "is required");
            return null;
        }
        try {
            return TextTemplate.parse(text);
        } catch (IllegalArgumentException e) {
            fields.problem(key, e.getMessage());
            return null;
        }
    }

    private static TextTemplate filter(YamlFields g) {
        TextTemplate filter = template(g, "filter", null);
        if (filter == null) {
            return null;
        }
        if (filter.variables().contains(TextTemplate.Variable.K)) {
            g.problem("filter", "{k} is a publisher topic slot; a filter can use n, i, group, run");
            return null;
        }
        String sample = filter.render(new TextTemplate.Values(0, 0, 0, "group", "run"));
        String why = TopicFilterMatcher.filterProblem(sample);
        if (why != null) {
            g.problem("filter", why + " (rendered '" + sample + "')");
            return null;
        }
        return filter;
    }

    private static void checkUniqueNames(
            List<PublisherGroup> pubs, List<SubscriberGroup> subs, List<ClientSettings> idle, List<String> problems) {
        Set<String> seen = new HashSet<>();
        List<String> names = new ArrayList<>();
        pubs.forEach(g -> names.add(g.client().name()));
        subs.forEach(g -> names.add(g.client().name()));
        idle.forEach(c -> names.add(c.name()));
        for (String n : names) {
            if (!seen.add(n)) {
                problems.add("group name '" + n + "' is used twice");
            }
        }
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }
}
