package io.tributary.session.retained;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.TopicPartition;
import org.springframework.stereotype.Component;

/**
 * How far this instance's retained consumer has written PostgreSQL, per publish partition it owns: the offset of
 * the next record it will read, published only after the records before it are in the table. Partitions owned by
 * other instances are not here; their progress is their group's committed offset.
 */
@Component
public class RetainedProgress {

    private final Map<TopicPartition, Long> written = new ConcurrentHashMap<>();

    void advance(TopicPartition partition, long nextOffset) {
        written.merge(partition, nextOffset, Math::max);
    }

    void forget(TopicPartition partition) {
        written.remove(partition);
    }

    /** The next offset to be written for a partition this instance owns, or {@code null}. */
    public Long writtenUpTo(TopicPartition partition) {
        return written.get(partition);
    }
}
