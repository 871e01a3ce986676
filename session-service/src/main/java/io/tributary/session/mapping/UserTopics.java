package io.tributary.session.mapping;

import io.tributary.session.config.SessionServiceProperties;
import io.tributary.session.kafka.KafkaUnavailableException;
import io.tributary.session.web.ApiException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.springframework.stereotype.Component;

/**
 * The user's Kafka topics a rule names: checked to exist and to be writable by Tributary (the broker's own view of
 * its ACLs, {@link AclOperation#WRITE} among the topic's authorized operations), or created on request. A rule to a
 * topic Tributary cannot write would fail every PUBLISH it matches, so it is refused up front.
 */
@Component
public class UserTopics {

    private static final long TIMEOUT_SECONDS = 15;

    private final Admin admin;
    private final short replicationFactor;

    public UserTopics(Admin admin, SessionServiceProperties properties) {
        this.admin = admin;
        this.replicationFactor = properties.kafka().topics().replicationFactor();
    }

    /**
     * @param partitions null: the topic must exist; else create it with that many partitions when missing
     * @throws ApiException 400 when the topic is missing, not writable, or has another partition count
     */
    public void ensureWritable(String topic, Integer partitions) {
        TopicDescription description = ensureExists(topic, partitions);
        Set<AclOperation> allowed = description.authorizedOperations();
        // Null: the broker did not say (no authorizer information); Kafka then refuses nothing on ACL grounds.
        if (allowed != null && !allowed.contains(AclOperation.WRITE) && !allowed.contains(AclOperation.ALL)) {
            throw ApiException.badRequest(
                    "Tributary may not write to Kafka topic '" + topic + "' (its ACLs allow " + allowed + ")");
        }
    }

    /**
     * For a Kafka-to-MQTT rule: the topic must exist (or is created with {@code partitions}) and Tributary may read
     * it.
     *
     * @return its partition count
     * @throws ApiException 400 otherwise
     */
    public int ensureReadable(String topic, Integer partitions) {
        TopicDescription description = ensureExists(topic, partitions);
        Set<AclOperation> allowed = description.authorizedOperations();
        if (allowed != null && !allowed.contains(AclOperation.READ) && !allowed.contains(AclOperation.ALL)) {
            throw ApiException.badRequest(
                    "Tributary may not read Kafka topic '" + topic + "' (its ACLs allow " + allowed + ")");
        }
        return description.partitions().size();
    }

    /**
     * Makes a new consumer group start at the topic's current end: a rule delivers what is produced after it was
     * made, not the topic's history (which could be months of commands).
     */
    public void startGroupAtEnd(String group, String topic) {
        try {
            TopicDescription description = describe(topic);
            if (description == null) {
                throw ApiException.badRequest("Kafka topic '" + topic + "' does not exist");
            }
            Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> latest =
                    new java.util.HashMap<>();
            description
                    .partitions()
                    .forEach(p -> latest.put(
                            new org.apache.kafka.common.TopicPartition(topic, p.partition()),
                            org.apache.kafka.clients.admin.OffsetSpec.latest()));
            Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.consumer.OffsetAndMetadata> offsets =
                    new java.util.HashMap<>();
            admin.listOffsets(latest)
                    .all()
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                    .forEach((tp, info) ->
                            offsets.put(tp, new org.apache.kafka.clients.consumer.OffsetAndMetadata(info.offset())));
            admin.alterConsumerGroupOffsets(group, offsets).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new KafkaUnavailableException("cannot set the offsets of group '" + group + "': " + e.getCause(), e);
        } catch (TimeoutException e) {
            throw new KafkaUnavailableException(
                    "Kafka did not set the offsets of group '" + group + "' within " + TIMEOUT_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaUnavailableException("interrupted setting the offsets of group '" + group + "'", e);
        }
    }

    /**
     * The topic's description; a missing topic is created when {@code partitions} is given.
     *
     * @throws ApiException 400 when the topic is missing (no partitions) or has another partition count
     */
    private TopicDescription ensureExists(String topic, Integer partitions) {
        if (partitions != null && (partitions < 1 || partitions > 10_000)) {
            throw ApiException.badRequest("partitions must be 1..10000: " + partitions);
        }
        TopicDescription description = describe(topic);
        if (description == null) {
            if (partitions == null) {
                throw ApiException.badRequest(
                        "Kafka topic '" + topic + "' does not exist; give \"partitions\" to" + " create it");
            }
            create(topic, partitions);
            description = describeCreated(topic);
        } else if (partitions != null && description.partitions().size() != partitions) {
            throw ApiException.badRequest("Kafka topic '" + topic + "' exists with "
                    + description.partitions().size() + " partitions, not " + partitions);
        }
        return description;
    }

    /**
     * A topic just created: the broker that answers the describe may not have its metadata yet (seen on a loaded
     * quick start: UnknownTopicOrPartition right after CreateTopics succeeded), so ask again for a while.
     */
    private TopicDescription describeCreated(String topic) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (true) {
            TopicDescription description = describe(topic);
            if (description != null) {
                return description;
            }
            if (System.nanoTime() > deadline) {
                throw new KafkaUnavailableException(
                        "topic '" + topic + "' was created but Kafka did not list it" + " within " + TIMEOUT_SECONDS
                                + " s",
                        null);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new KafkaUnavailableException("interrupted waiting for topic '" + topic + "'", e);
            }
        }
    }

    private TopicDescription describe(String topic) {
        try {
            Map<String, TopicDescription> described = admin.describeTopics(
                            List.of(topic), new DescribeTopicsOptions().includeAuthorizedOperations(true))
                    .allTopicNames()
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return described.get(topic);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return null;
            }
            if (e.getCause() instanceof TopicAuthorizationException) {
                throw ApiException.badRequest("Tributary may not describe Kafka topic '" + topic + "': "
                        + e.getCause().getMessage());
            }
            throw new KafkaUnavailableException("cannot describe topic '" + topic + "': " + e.getCause(), e);
        } catch (TimeoutException e) {
            throw new KafkaUnavailableException(
                    "Kafka did not describe topic '" + topic + "' within " + TIMEOUT_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaUnavailableException("interrupted describing topic '" + topic + "'", e);
        }
    }

    private void create(String topic, int partitions) {
        try {
            admin.createTopics(List.of(new NewTopic(topic, partitions, replicationFactor)))
                    .all()
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicExistsException) {
                return;
            }
            if (e.getCause() instanceof TopicAuthorizationException
                    || e.getCause() instanceof org.apache.kafka.common.errors.InvalidRequestException
                    || e.getCause() instanceof org.apache.kafka.common.errors.InvalidReplicationFactorException
                    || e.getCause() instanceof org.apache.kafka.common.errors.PolicyViolationException) {
                throw ApiException.badRequest("Kafka refused to create topic '" + topic + "': "
                        + e.getCause().getMessage());
            }
            throw new KafkaUnavailableException("cannot create topic '" + topic + "': " + e.getCause(), e);
        } catch (TimeoutException e) {
            throw new KafkaUnavailableException(
                    "Kafka did not create topic '" + topic + "' within " + TIMEOUT_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaUnavailableException("interrupted creating topic '" + topic + "'", e);
        }
    }
}
