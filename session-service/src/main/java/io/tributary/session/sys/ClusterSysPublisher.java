package io.tributary.session.sys;

import io.tributary.common.kafka.PublishRecordFormat;
import io.tributary.session.kafka.RecordSender;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

/**
 * Publishes the cluster-wide {@code $SYS/broker/...} statistics every {@code TRIBUTARY_SYS_INTERVAL}, from one
 * session-service instance per interval (see {@link ClusterStats#claim}): session-service is the service that sees
 * the whole cluster (PostgreSQL), while each transport node publishes its own figures under
 * {@code $SYS/broker/nodes/<node>/}. Retained QoS 0 records on {@code tributary.publish}, like any PUBLISH.
 * Runs on Spring's scheduler thread, never on a request thread.
 */
@Component
public class ClusterSysPublisher implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(ClusterSysPublisher.class);
    /** The tributary.node-id header of the records: no transport node received them. */
    static final String NODE_ID = "session-service";

    private final ClusterStats stats;
    private final RecordSender sender;
    private final SysProperties properties;
    private boolean failing;

    public ClusterSysPublisher(ClusterStats stats, RecordSender sender, SysProperties properties) {
        this.stats = stats;
        this.sender = sender;
        this.properties = properties;
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        if (properties.interval().isZero()) {
            log.info("$SYS statistics disabled (TRIBUTARY_SYS_INTERVAL=0)");
            return;
        }
        registrar.addFixedRateTask(this::publishIfDue, properties.interval());
    }

    /** Publishes the statistics if no other instance did within this interval. */
    public void publishIfDue() {
        try {
            if (!stats.claim(properties.interval())) {
                return;
            }
            long now = System.currentTimeMillis();
            List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
            for (Map.Entry<String, String> stat : stats.read().entrySet()) {
                records.add(PublishRecordFormat.sysStatistic(stat.getKey(), stat.getValue(), NODE_ID, now));
            }
            sender.sendAndAwait(records);
            if (failing) {
                failing = false;
                log.info("$SYS statistics published again");
            }
        } catch (RuntimeException e) {
            // PostgreSQL or Kafka unavailable: the next interval tries again with fresh figures.
            if (!failing) {
                failing = true;
                log.warn("Could not publish the cluster-wide $SYS statistics: {}", e.toString());
            }
        }
    }
}
