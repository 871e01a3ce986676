package io.tributary.session.bridge;

import io.tributary.common.mapping.MappingRule;
import io.tributary.common.mapping.MqttTopicTemplate;
import io.tributary.session.mapping.UserTopics;
import io.tributary.session.store.AfterCommit;
import io.tributary.session.web.ApiException;
import java.time.Clock;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Kafka-to-MQTT rules: validated, stored in PostgreSQL; {@link KafkaBridges} on every session-service instance runs
 * the rules the table holds. A new rule's consumer group is set to the topic's end before the rule is stored, so
 * the rule delivers exactly what is produced after its {@code 201}.
 */
@Service
public class BridgeRuleService {

    private static final Logger log = LoggerFactory.getLogger(BridgeRuleService.class);

    private final BridgeRuleStore store;
    private final UserTopics topics;
    private final KafkaBridges bridges;
    private final Clock clock;

    public BridgeRuleService(BridgeRuleStore store, UserTopics topics, KafkaBridges bridges, Clock clock) {
        this.store = store;
        this.topics = topics;
        this.bridges = bridges;
        this.clock = clock;
    }

    @Transactional
    public BridgeRule create(BridgeRuleRequest body) {
        if (body == null) {
            throw ApiException.badRequest("request body is required");
        }
        try {
            MappingRule.checkTopicName(body.kafkaTopic());
            MqttTopicTemplate.parse(body.mqttTopic());
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        if (body.qos() != null && (body.qos() < 0 || body.qos() > 2)) {
            throw ApiException.badRequest("qos must be 0, 1 or 2: " + body.qos());
        }
        topics.ensureReadable(body.kafkaTopic(), body.partitions());
        long id;
        try {
            id = store.insert(body.kafkaTopic(), body.mqttTopic(), body.qos(), body.retain(), clock.instant());
        } catch (DuplicateKeyException e) {
            throw ApiException.conflict(
                    "a rule delivers '" + body.kafkaTopic() + "' on '" + body.mqttTopic() + "' already");
        }
        BridgeRule rule = get(id);
        // Inside the transaction: when Kafka cannot set the offsets, the rule is not stored (503).
        topics.startGroupAtEnd(rule.consumerGroup(), rule.kafkaTopic());
        AfterCommit.run(bridges::reconcile);
        log.info(
                "Kafka-to-MQTT rule {} added: Kafka '{}' -> MQTT '{}' (qos {}, retain {})",
                id,
                rule.kafkaTopic(),
                rule.mqttTopic(),
                rule.qos() == null ? "from headers" : rule.qos(),
                rule.retain() == null ? "from headers" : rule.retain());
        return rule;
    }

    public BridgeRule get(long id) {
        return store.find(id).orElseThrow(() -> ApiException.notFound("no Kafka-to-MQTT rule " + id));
    }

    public List<BridgeRule> list() {
        return store.all();
    }

    @Transactional
    public void delete(long id) {
        BridgeRule rule = get(id);
        if (!store.delete(id)) {
            throw ApiException.notFound("no Kafka-to-MQTT rule " + id);
        }
        AfterCommit.run(bridges::reconcile);
        log.info("Kafka-to-MQTT rule {} removed: Kafka '{}' -> MQTT '{}'", id, rule.kafkaTopic(), rule.mqttTopic());
    }
}
