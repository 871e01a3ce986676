package io.tributary.transport.qos2;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Exactly-once QoS 2 into Kafka. Bound from {@code tributary.transport.qos2.*} ({@code TRIBUTARY_QOS2_EXACTLY_ONCE},
 * {@code TRIBUTARY_QOS2_TRANSACTION_TIMEOUT}).
 *
 * @param exactlyOnce        write each QoS 2 PUBLISH of a persistent session, its mapped copies and its
 *                           {@link Qos2Markers marker} in one Kafka transaction, so a copy re-sent after its node died
 *                           is recognised on any node (docs/guarantees.md)
 * @param transactionTimeout transaction.timeout.ms of the node's transactional producer: how long a transaction a
 *                           killed node left open holds back read_committed readers of its partitions (the publish
 *                           topic and the markers) before the broker aborts it. A node restarted with the same id
 *                           aborts it at once
 */
@Validated
@ConfigurationProperties("tributary.transport.qos2")
public record Qos2Properties(boolean exactlyOnce, @NotNull Duration transactionTimeout) {

    /** Kafka refuses a transaction timeout above the broker's transaction.max.timeout.ms (15 minutes by default). */
    @AssertTrue(message = "tributary.transport.qos2.transaction-timeout must be between 1 s and 15 min")
    public boolean isTransactionTimeoutInRange() {
        return transactionTimeout == null
                || (transactionTimeout.compareTo(Duration.ofSeconds(1)) >= 0
                        && transactionTimeout.compareTo(Duration.ofMinutes(15)) <= 0);
    }
}
