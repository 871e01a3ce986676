package io.tributary.routing.feed;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.TimeoutException;

/**
 * The end offsets of the feed partitions, asked with the Admin client rather than the feed consumer.
 *
 * <p>Why not {@code consumer.endOffsets}: an idle feed consumer always has a fetch parked at the broker for up to
 * {@code fetch.max.wait.ms} (500 ms), and a broker answers the requests of one connection strictly in order, so a
 * ListOffsets sent on the consumer's connection waited behind that fetch. Every batch that followed a quiet spell
 * paid it before it was routed: a single message on an idle broker took 105-560 ms (a thread dump of the routing
 * loop showed it in {@code OffsetFetcher.endOffsets} each time). The Admin client's connection carries no fetch.
 */
public final class FeedEndOffsets {

    private final Admin admin;

    FeedEndOffsets(Admin admin) {
        this.admin = admin;
    }

    /**
     * The high watermark of each partition (what a read_uncommitted consumer reads up to): every record acknowledged
     * to its producer before this call is below it.
     *
     * @throws TimeoutException when Kafka does not answer within {@code timeout}
     */
    Map<TopicPartition, Long> of(Set<TopicPartition> partitions, Duration timeout) {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (TopicPartition tp : partitions) {
            request.put(tp, OffsetSpec.latest());
        }
        ListOffsetsOptions options =
                new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED).timeoutMs((int) timeout.toMillis());
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> answer;
        try {
            answer = admin.listOffsets(request, options).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptException(e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new TimeoutException("end offsets of the subscription feed not known within " + timeout);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof KafkaException k
                    ? k
                    : new KafkaException("listing the subscription feed's end offsets failed", e.getCause());
        }
        Map<TopicPartition, Long> ends = new HashMap<>(answer.size());
        answer.forEach((tp, info) -> ends.put(tp, info.offset()));
        return ends;
    }
}
