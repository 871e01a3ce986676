package io.tributary.transport.mapping;

import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.mapping.MappingRule;
import io.tributary.common.topic.TopicTrie;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * The MQTT-to-Kafka mapping rules this node applies, as {@link MappingRuleFollower} reads them. Matched on the event
 * loops for every PUBLISH, without locks ({@link TopicTrie} readers never lock); nothing is allocated for a publish
 * no rule matches.
 */
public final class MappingRules {

    private final TopicTrie<Long, MappingRule> trie = new TopicTrie<>();
    private final Map<Long, MappingRule> byId = new ConcurrentHashMap<>();
    /** Kafka topics of rules whose metadata the producer lacks: a send there would block the event loop. */
    private final java.util.Set<String> unavailable = ConcurrentHashMap.newKeySet();

    /** Applies a rule (replacing the one of the same id). Called by the follower thread only. */
    void put(MappingRule rule) {
        MappingRule previous = byId.put(rule.id(), rule);
        if (previous != null) {
            trie.remove(previous.filter().mqttFilter(), previous.id());
        }
        trie.put(rule.filter().mqttFilter(), rule.id(), rule);
    }

    /** Stops applying a rule. Called by the follower thread only. */
    void remove(long id) {
        MappingRule previous = byId.remove(id);
        if (previous != null) {
            trie.remove(previous.filter().mqttFilter(), id);
        }
    }

    void markUnavailable(String kafkaTopic, boolean isUnavailable) {
        if (isUnavailable) {
            unavailable.add(kafkaTopic);
        } else {
            unavailable.remove(kafkaTopic);
        }
    }

    /** The first of the records' topics the node cannot write to now, or null when it can write them all. */
    public String unavailableTopic(List<ProducerRecord<byte[], byte[]>> records) {
        if (unavailable.isEmpty()) {
            return null;
        }
        for (ProducerRecord<byte[], byte[]> record : records) {
            if (unavailable.contains(record.topic())) {
                return record.topic();
            }
        }
        return null;
    }

    public int size() {
        return byId.size();
    }

    List<MappingRule> all() {
        return List.copyOf(byId.values());
    }

    /**
     * The records a publish is written as: its {@code tributary.publish} record first, then one per matching rule
     * (two rules to the same Kafka topic give two records, as the user asked for both), each with the payload, the
     * headers of the publish record and {@link RecordHeaders#MQTT_TOPIC} (the record key need not be the topic
     * here). Just the publish record when no rule matches, without allocating anything more.
     *
     * @param publish the record for {@code tributary.publish}, not yet sent (its headers are copied)
     */
    public List<ProducerRecord<byte[], byte[]>> recordsFor(
            String topic, String clientId, ProducerRecord<byte[], byte[]> publish) {
        if (trie.isEmpty()) {
            return List.of(publish);
        }
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>(2);
        out.add(publish);
        trie.match(topic, (id, rule) -> {
            ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(
                    rule.kafkaTopic(),
                    null,
                    rule.key().key(rule.filter(), topic, clientId),
                    publish.value(),
                    publish.headers());
            record.headers().add(new RecordHeader(RecordHeaders.MQTT_TOPIC, RecordHeaders.utf8(topic)));
            out.add(record);
        });
        return out.size() == 1 ? List.of(publish) : out;
    }
}
