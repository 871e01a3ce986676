package io.tributary.session.kafkaview;

import io.tributary.session.kafka.KafkaUnavailableException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsResult;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * Read-only views of the Kafka cluster for the admin console: Tributary's topics with their partitions and offsets,
 * and consumer groups with their members and lag. Runs on servlet threads; every call is bounded by a timeout.
 */
@Component
public class KafkaInspector {

    /** Topics Tributary creates all start with this. */
    public static final String TOPIC_PREFIX = "tributary.";

    private static final long TIMEOUT_MS = 3000;

    public record PartitionView(
            int partition,
            @Nullable Integer leader,
            List<Integer> replicas,
            List<Integer> isr,
            long startOffset,
            long endOffset) {}

    public record TopicView(String name, List<PartitionView> partitions, long messages) {}

    /** {@code committed} null: the group has no committed offset there yet (its lag is then not counted). */
    public record GroupPartition(
            String topic,
            int partition,
            @Nullable Long committed,
            long endOffset,
            @Nullable Long lag) {}

    public record MemberView(String memberId, String clientId, String host, int partitions) {}

    public record GroupView(
            String groupId, String state, List<MemberView> members, long lag, List<GroupPartition> partitions) {}

    /** Kafka does not know the group: not a failure, an empty group. */
    private static final class UnknownGroup extends RuntimeException {
        UnknownGroup() {
            super(null, null, false, false);
        }
    }

    private final Admin admin;

    public KafkaInspector(Admin admin) {
        this.admin = admin;
    }

    public List<TopicView> topics() {
        List<String> names = await(admin.listTopics().names()).stream()
                .filter(n -> n.startsWith(TOPIC_PREFIX))
                .sorted()
                .toList();
        Map<String, TopicDescription> descriptions =
                await(admin.describeTopics(names).allTopicNames());
        List<TopicPartition> partitions = new ArrayList<>();
        descriptions
                .values()
                .forEach(d -> d.partitions().forEach(p -> partitions.add(new TopicPartition(d.name(), p.partition()))));
        Map<TopicPartition, Long> starts = offsets(partitions, OffsetSpec.earliest());
        Map<TopicPartition, Long> ends = offsets(partitions, OffsetSpec.latest());
        List<TopicView> topics = new ArrayList<>();
        for (String name : names) {
            TopicDescription d = descriptions.get(name);
            if (d == null) {
                continue;
            }
            List<PartitionView> views = new ArrayList<>();
            long messages = 0;
            for (TopicPartitionInfo p : d.partitions()) {
                TopicPartition tp = new TopicPartition(name, p.partition());
                long start = starts.getOrDefault(tp, 0L);
                long end = ends.getOrDefault(tp, 0L);
                messages += end - start;
                views.add(new PartitionView(
                        p.partition(),
                        p.leader() == null ? null : p.leader().id(),
                        p.replicas().stream().map(n -> n.id()).toList(),
                        p.isr().stream().map(n -> n.id()).toList(),
                        start,
                        end));
            }
            topics.add(new TopicView(name, views, messages));
        }
        return topics;
    }

    public List<String> groupIds() {
        return await(admin.listGroups().all()).stream()
                .map(GroupListing::groupId)
                .sorted()
                .toList();
    }

    /** One group; see {@link #requestGroups(List)}. */
    public GroupView group(String groupId) {
        return requestGroups(List.of(groupId)).await().get(groupId);
    }

    /** Several groups, asked for at once. */
    public Map<String, GroupView> groups(List<String> groupIds) {
        return requestGroups(groupIds).await();
    }

    /** Groups whose answers are on the way: {@link #await()} waits for them and for their partitions' end offsets. */
    public final class PendingGroups {

        private final List<String> groupIds;
        private final Map<String, KafkaFuture<ConsumerGroupDescription>> descriptions;
        private final ListConsumerGroupOffsetsResult offsets;

        private PendingGroups(List<String> groupIds) {
            this.groupIds = groupIds;
            this.descriptions = groupIds.isEmpty()
                    ? Map.of()
                    : admin.describeConsumerGroups(groupIds).describedGroups();
            Map<String, ListConsumerGroupOffsetsSpec> specs = new LinkedHashMap<>();
            groupIds.forEach(id -> specs.put(id, new ListConsumerGroupOffsetsSpec()));
            this.offsets = groupIds.isEmpty() ? null : admin.listConsumerGroupOffsets(specs);
        }

        /**
         * Each group's state, members and lag, in the order asked; a group Kafka does not know (no instance ever
         * joined, or all left long ago) comes back empty, in state {@code Dead}.
         */
        public Map<String, GroupView> await() {
            Map<String, ConsumerGroupDescription> described = new HashMap<>();
            Map<String, Map<TopicPartition, OffsetAndMetadata>> committed = new HashMap<>();
            Set<TopicPartition> partitions = new HashSet<>();
            for (String id : groupIds) {
                try {
                    described.put(id, KafkaInspector.await(descriptions.get(id)));
                    Map<TopicPartition, OffsetAndMetadata> c =
                            KafkaInspector.await(offsets.partitionsToOffsetAndMetadata(id));
                    committed.put(id, c);
                    partitions.addAll(c.keySet());
                } catch (UnknownGroup e) {
                    // listed below as an empty group
                }
            }
            Map<TopicPartition, Long> ends = offsets(partitions, OffsetSpec.latest());
            Map<String, GroupView> views = new LinkedHashMap<>();
            for (String id : groupIds) {
                views.put(id, view(id, described.get(id), committed.getOrDefault(id, Map.of()), ends));
            }
            return views;
        }
    }

    /** Sends the requests about these consumer groups now; the answers are awaited by {@link PendingGroups#await()}. */
    public PendingGroups requestGroups(List<String> groupIds) {
        return new PendingGroups(groupIds);
    }

    private static GroupView view(
            String groupId,
            ConsumerGroupDescription description,
            Map<TopicPartition, OffsetAndMetadata> committed,
            Map<TopicPartition, Long> ends) {
        List<GroupPartition> partitions = new ArrayList<>();
        long lag = 0;
        for (Map.Entry<TopicPartition, OffsetAndMetadata> e : committed.entrySet()) {
            long end = ends.getOrDefault(e.getKey(), 0L);
            Long offset = e.getValue() == null ? null : e.getValue().offset();
            Long partitionLag = offset == null ? null : Math.max(0, end - offset);
            lag += partitionLag == null ? 0 : partitionLag;
            partitions.add(new GroupPartition(e.getKey().topic(), e.getKey().partition(), offset, end, partitionLag));
        }
        partitions.sort(Comparator.comparing(GroupPartition::topic).thenComparingInt(GroupPartition::partition));
        List<MemberView> members = description == null
                ? List.of()
                : description.members().stream()
                        .map(KafkaInspector::member)
                        .sorted(Comparator.comparing(MemberView::clientId).thenComparing(MemberView::memberId))
                        .toList();
        String state = description == null ? "Dead" : String.valueOf(description.groupState());
        return new GroupView(groupId, state, members, lag, partitions);
    }

    private static MemberView member(MemberDescription m) {
        return new MemberView(
                m.consumerId(),
                m.clientId(),
                m.host(),
                m.assignment().topicPartitions().size());
    }

    private Map<TopicPartition, Long> offsets(java.util.Collection<TopicPartition> partitions, OffsetSpec spec) {
        if (partitions.isEmpty()) {
            return Map.of();
        }
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(tp -> request.put(tp, spec));
        Map<TopicPartition, ListOffsetsResultInfo> result =
                await(admin.listOffsets(request).all());
        Map<TopicPartition, Long> offsets = new HashMap<>();
        result.forEach((tp, info) -> offsets.put(tp, info.offset()));
        return offsets;
    }

    private static <T> T await(KafkaFuture<T> future) {
        try {
            return future.get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaUnavailableException("interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                throw new UnknownGroup();
            }
            throw new KafkaUnavailableException(String.valueOf(e.getCause()), e);
        } catch (TimeoutException e) {
            throw new KafkaUnavailableException("no answer within " + TIMEOUT_MS + " ms", e);
        }
    }
}
