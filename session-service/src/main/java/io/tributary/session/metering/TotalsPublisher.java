package io.tributary.session.metering;

import io.tributary.common.kafka.TopicNames;
import io.tributary.common.metering.MeteringRecords;
import io.tributary.common.metering.UsageTotals;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Writes tenant-hour totals to the compacted {@link TopicNames#METERING} topic, key {@code <tenant>|<hour>}, after
 * they are committed in PostgreSQL. Not awaited: a record lost here (Kafka down) is written again by the next delta
 * of that tenant-hour or by {@link UsageSampler}'s next run, which publishes the current and previous hours again.
 */
@Component
public class TotalsPublisher {

    private static final Logger log = LoggerFactory.getLogger(TotalsPublisher.class);

    private final Producer<byte[], byte[]> producer;
    private volatile boolean failing;

    public TotalsPublisher(Producer<byte[], byte[]> producer) {
        this.producer = producer;
    }

    public void publish(Collection<UsageTotals> totals) {
        for (UsageTotals t : totals) {
            ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(
                    TopicNames.METERING,
                    MeteringRecords.totalsKey(t.tenant(), t.hour()).getBytes(StandardCharsets.UTF_8),
                    MeteringRecords.encode(t));
            try {
                producer.send(record, (metadata, failure) -> sent(failure));
            } catch (RuntimeException e) {
                sent(e);
            }
        }
    }

    private void sent(Exception failure) {
        if (failure != null && !failing) {
            failing = true;
            log.warn(
                    "Metering totals not stored by Kafka (published again at the next sample): {}", failure.toString());
        } else if (failure == null && failing) {
            failing = false;
            log.info("Metering totals published again");
        }
    }
}
