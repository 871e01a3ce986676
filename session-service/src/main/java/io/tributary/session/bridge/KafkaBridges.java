package io.tributary.session.bridge;

import io.tributary.common.kafka.KafkaClients;
import io.tributary.kafka.tracing.HopTracing;
import io.tributary.session.kafka.RecordSender;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Runs the Kafka-to-MQTT rules on this session-service instance: one {@link KafkaBridge} per rule in the table. Every
 * instance runs every rule in the rule's consumer group, so Kafka spreads each topic's partitions over the instances
 * and moves them when one goes. Rules made or removed through this instance apply at once, through another within
 * {@code 2 s} (the table is read again that often).
 */
@Component
public class KafkaBridges implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(KafkaBridges.class);

    private final BridgeRuleStore store;
    private final RecordSender sender;
    private final KafkaClients kafkaClients;
    private final HopTracing tracing;
    private final Map<Long, KafkaBridge> running = new HashMap<>();
    private boolean closed;

    public KafkaBridges(BridgeRuleStore store, RecordSender sender, KafkaClients kafkaClients, HopTracing tracing) {
        this.store = store;
        this.tracing = tracing;
        this.sender = sender;
        this.kafkaClients = kafkaClients;
    }

    /** Starts the bridges of new rules, stops those of removed ones, restarts any whose thread ended. */
    @Scheduled(initialDelay = 0, fixedDelay = 2_000)
    public synchronized void reconcile() {
        if (closed) {
            return;
        }
        Map<Long, BridgeRule> rules;
        try {
            rules = store.all().stream().collect(Collectors.toMap(BridgeRule::id, r -> r));
        } catch (RuntimeException e) {
            log.warn("Kafka-to-MQTT rules not read: {}", e.toString());
            return;
        }
        for (Long id : Set.copyOf(running.keySet())) {
            KafkaBridge bridge = running.get(id);
            if (!rules.containsKey(id) || !bridge.isAlive()) {
                bridge.requestStop();
                running.remove(id);
            }
        }
        rules.forEach((id, rule) -> running.computeIfAbsent(id, k -> {
            KafkaBridge bridge = new KafkaBridge(rule, kafkaClients, sender, tracing);
            bridge.start();
            log.info("Kafka-to-MQTT rule {} running: Kafka '{}' -> MQTT '{}'", id, rule.kafkaTopic(), rule.mqttTopic());
            return bridge;
        }));
    }

    public synchronized int size() {
        return running.size();
    }

    /** Stops every bridge at shutdown; their partitions move to the other instances. */
    @Override
    public synchronized void destroy() {
        closed = true;
        running.values().forEach(KafkaBridge::requestStop);
        running.values().forEach(KafkaBridge::awaitStop);
        running.clear();
    }
}
