package io.tributary.it.kafka;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.GroupState;

/**
 * Which publish partitions a router of the routers' group owns, for a test that needs its publishes routed by a
 * router of its own settings beside the shared one; and the wait for the shared router to own them all again.
 */
final class RouterOwnership {

    /** The routers' consumer group (routing-service's default {@code TRIBUTARY_ROUTING_GROUP}). */
    private static final String GROUP = "tributary-routing";

    private static final String PUBLISH_TOPIC = "tributary.publish";
    private static final Pattern OWNING = Pattern.compile("now owning \\[([0-9, ]*)\\]");

    private RouterOwnership() {}

    /**
     * The partitions the router writing {@code log} owns, once the group is stable with two members and the router
     * has said it owns some.
     */
    static Set<Integer> await(String bootstrap, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (Admin admin = admin(bootstrap)) {
            while (System.nanoTime() < deadline) {
                Set<Integer> owned = lastOwned(log);
                ConsumerGroupDescription group = describe(admin);
                if (!owned.isEmpty()
                        && group.groupState() == GroupState.STABLE
                        && group.members().size() == 2) {
                    return owned;
                }
                Thread.sleep(200);
            }
        }
        throw new AssertionError("the router owns no publish partition 60 s after it started");
    }

    /** Waits until one router (the shared one) owns every publish partition again. */
    static void awaitSharedRouterOwnsAll(String bootstrap) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (Admin admin = admin(bootstrap)) {
            int partitions = admin.describeTopics(List.of(PUBLISH_TOPIC))
                    .allTopicNames()
                    .get(30, TimeUnit.SECONDS)
                    .get(PUBLISH_TOPIC)
                    .partitions()
                    .size();
            while (System.nanoTime() < deadline) {
                ConsumerGroupDescription group = describe(admin);
                if (group.groupState() == GroupState.STABLE
                        && group.members().size() == 1
                        && group.members().iterator().next().assignment().topicPartitions().stream()
                                        .filter(tp -> tp.topic().equals(PUBLISH_TOPIC))
                                        .count()
                                == partitions) {
                    return;
                }
                Thread.sleep(200);
            }
        }
        throw new AssertionError("the shared router does not own every publish partition again within 60 s");
    }

    private static ConsumerGroupDescription describe(Admin admin) throws Exception {
        return admin.describeConsumerGroups(List.of(GROUP))
                .all()
                .get(30, TimeUnit.SECONDS)
                .get(GROUP);
    }

    private static Admin admin(String bootstrap) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    }

    private static Set<Integer> lastOwned(Path log) throws Exception {
        Set<Integer> owned = new TreeSet<>();
        if (!Files.exists(log)) {
            return owned;
        }
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        for (int i = lines.size() - 1; i >= 0; i--) {
            Matcher m = OWNING.matcher(lines.get(i));
            if (m.find()) {
                for (String p : m.group(1).split(",")) {
                    if (!p.isBlank()) {
                        owned.add(Integer.parseInt(p.strip()));
                    }
                }
                return owned;
            }
        }
        return owned;
    }
}
