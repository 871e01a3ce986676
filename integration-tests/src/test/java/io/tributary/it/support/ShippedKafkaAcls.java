package io.tributary.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The Kafka ACLs the deployments ship, read from deploy/kafka/acls.conf, the file deploy/kafka/setup-kafka.sh gives
 * to kafka-acls.sh line by line in compose, the Helm chart and kustomize: a cluster on these bindings runs on what
 * ships. Same format as the script reads: {@code principal resource pattern name operation,operation}.
 */
public final class ShippedKafkaAcls {

    /** Relative to the integration-tests module, where the tests run. */
    public static final Path FILE = Paths.get("..", "deploy", "kafka", "acls.conf");

    private ShippedKafkaAcls() {}

    public static List<AclBinding> bindings() {
        try {
            return parse(Files.readAllLines(FILE));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + FILE.toAbsolutePath(), e);
        }
    }

    static List<AclBinding> parse(List<String> lines) {
        List<AclBinding> bindings = new ArrayList<>();
        for (String line : lines) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            String[] f = trimmed.split("\\s+");
            if (f.length != 5) {
                throw new IllegalArgumentException(FILE + ": expected 5 fields: " + line);
            }
            ResourcePattern pattern =
                    new ResourcePattern(resourceType(f[1]), f[3], PatternType.valueOf(f[2].toUpperCase(Locale.ROOT)));
            for (String operation : f[4].split(",")) {
                bindings.add(new AclBinding(
                        pattern,
                        new AccessControlEntry("User:" + f[0], "*", operation(operation), AclPermissionType.ALLOW)));
            }
        }
        return bindings;
    }

    /** kafka-acls.sh's option names: topic, group, transactional-id, cluster. */
    private static ResourceType resourceType(String option) {
        return ResourceType.valueOf(option.replace('-', '_').toUpperCase(Locale.ROOT));
    }

    /** kafka-acls.sh's operation names, e.g. DescribeConfigs. */
    private static AclOperation operation(String name) {
        return AclOperation.valueOf(name.replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT));
    }
}
