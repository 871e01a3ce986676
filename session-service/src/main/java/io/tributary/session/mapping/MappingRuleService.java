package io.tributary.session.mapping;

import io.tributary.common.mapping.MappingRule;
import io.tributary.common.mapping.MappingRuleRecords;
import io.tributary.session.kafka.KafkaUnavailableException;
import io.tributary.session.kafka.RecordSender;
import io.tributary.session.web.ApiException;
import java.time.Clock;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * MQTT-to-Kafka mapping rules: validated, stored in PostgreSQL, and handed to every transport node through the
 * compacted topic {@code tributary.mapping-rules}, which nodes follow (so a rule applies without a restart, within
 * the moment a node's consumer takes to read it). The record is produced and acknowledged inside the transaction:
 * when Kafka cannot take it, nothing is stored (503). Should the commit fail after that, a tombstone withdraws the
 * record; and at start-up every stored rule is produced again, so the topic converges on the table.
 */
@Service
public class MappingRuleService {

    private static final Logger log = LoggerFactory.getLogger(MappingRuleService.class);

    private final MappingRuleStore store;
    private final UserTopics topics;
    private final RecordSender sender;
    private final Clock clock;

    public MappingRuleService(MappingRuleStore store, UserTopics topics, RecordSender sender, Clock clock) {
        this.store = store;
        this.topics = topics;
        this.sender = sender;
        this.clock = clock;
    }

    @Transactional
    public MappingRuleView create(MappingRuleRequest body) {
        if (body == null) {
            throw ApiException.badRequest("request body is required");
        }
        MappingRule checked;
        try {
            checked = MappingRule.of(0, body.filter(), body.kafkaTopic(), body.key());
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        topics.ensureWritable(checked.kafkaTopic(), body.partitions());
        long id;
        try {
            id = store.insert(
                    checked.filter().text(), checked.kafkaTopic(), checked.key().toString(), clock.instant());
        } catch (DuplicateKeyException e) {
            throw ApiException.conflict(
                    "a rule maps '" + checked.filter().text() + "' to '" + checked.kafkaTopic() + "' already");
        }
        MappingRule rule = new MappingRule(id, checked.filter(), checked.kafkaTopic(), checked.key());
        withdrawOnRollback(id);
        sender.sendAndAwait(List.of(MappingRuleRecords.toRecord(rule)));
        log.info(
                "Mapping rule {} added: MQTT '{}' -> Kafka '{}', key {}",
                id,
                rule.filter().text(),
                rule.kafkaTopic(),
                rule.key());
        return get(id);
    }

    public MappingRuleView get(long id) {
        return store.find(id).orElseThrow(() -> ApiException.notFound("no mapping rule " + id));
    }

    public List<MappingRuleView> list() {
        return store.all();
    }

    /** The tombstone is acknowledged before the row goes: a node never keeps applying a rule the table lacks. */
    @Transactional
    public void delete(long id) {
        MappingRuleView rule = get(id);
        if (!store.delete(id)) {
            throw ApiException.notFound("no mapping rule " + id);
        }
        sender.sendAndAwait(List.of(MappingRuleRecords.tombstone(id)));
        log.info("Mapping rule {} removed: MQTT '{}' -> Kafka '{}'", id, rule.filter(), rule.kafkaTopic());
    }

    /** Produces every stored rule again, so a record lost between a commit and its send is repaired. */
    @EventListener(ApplicationReadyEvent.class)
    public void republish() {
        List<ProducerRecord<byte[], byte[]>> records = store.all().stream()
                .map(v -> MappingRuleRecords.toRecord(MappingRule.of(v.id(), v.filter(), v.kafkaTopic(), v.key())))
                .toList();
        try {
            sender.sendAndAwait(records);
            log.info("{} mapping rule(s) published to transport nodes", records.size());
        } catch (KafkaUnavailableException e) {
            // The rules still stand in the topic from before; the next start publishes them again.
            log.warn("Mapping rules not republished at start-up: {}", e.getMessage());
        }
    }

    private void withdrawOnRollback(long id) {
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCompletion(int status) {
                if (status != STATUS_COMMITTED) {
                    try {
                        sender.sendAndAwait(List.of(MappingRuleRecords.tombstone(id)));
                    } catch (KafkaUnavailableException e) {
                        log.error(
                                "Mapping rule {} was rolled back but its record could not be withdrawn: {}",
                                id,
                                e.getMessage());
                    }
                }
            }
        });
    }
}
