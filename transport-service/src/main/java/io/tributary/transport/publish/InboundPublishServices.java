package io.tributary.transport.publish;

import io.tributary.sessionqueue.InboundQos2Store;
import io.tributary.transport.backpressure.UplinkBudget;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.limits.ClientLimits;
import io.tributary.transport.mapping.MappingRules;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.qos2.ExactlyOnceQos2;
import io.tributary.transport.trace.PublishTracing;
import io.tributary.transport.uplink.PublishProducer;

/**
 * What {@link InboundPublishHandler} works with, in one value: the six the node always has ({@link #of}), and the
 * optional ones, which default to off and are set with the {@code with...} methods (tests set only what they test).
 *
 * @param receiveMaximum QoS 1/2 exchanges a client may open at once (the Receive Maximum the CONNACK announces)
 * @param qos2Store      null: QoS 2 de-duplication per connection only (unit tests without Redis)
 * @param tracing        the trace context of the records, and the {@code publish} span when tracing is on
 * @param exactlyOnce    exactly-once QoS 2 into Kafka for persistent sessions; null: de-duplicated through Redis only
 *                       (docs/guarantees.md)
 */
public record InboundPublishServices(
        String nodeId,
        PublishProducer producer,
        Disconnector disconnector,
        TransportMetrics metrics,
        int receiveMaximum,
        UplinkBudget budget,
        InboundQos2Store qos2Store,
        ClientLimits limits,
        MappingRules mappings,
        PublishTracing tracing,
        ExactlyOnceQos2 exactlyOnce) {

    /** No Redis, no limits, no mapping rules, no tracing, no exactly-once QoS 2. */
    public static InboundPublishServices of(
            String nodeId,
            PublishProducer producer,
            Disconnector disconnector,
            TransportMetrics metrics,
            int receiveMaximum,
            UplinkBudget budget) {
        return new InboundPublishServices(
                nodeId,
                producer,
                disconnector,
                metrics,
                receiveMaximum,
                budget,
                null,
                ClientLimits.NONE,
                new MappingRules(),
                PublishTracing.OFF,
                null);
    }

    public InboundPublishServices withQos2Store(InboundQos2Store store) {
        return new InboundPublishServices(
                nodeId,
                producer,
                disconnector,
                metrics,
                receiveMaximum,
                budget,
                store,
                limits,
                mappings,
                tracing,
                exactlyOnce);
    }

    public InboundPublishServices withLimits(ClientLimits clientLimits) {
        return new InboundPublishServices(
                nodeId,
                producer,
                disconnector,
                metrics,
                receiveMaximum,
                budget,
                qos2Store,
                clientLimits,
                mappings,
                tracing,
                exactlyOnce);
    }

    public InboundPublishServices withMappings(MappingRules rules) {
        return new InboundPublishServices(
                nodeId,
                producer,
                disconnector,
                metrics,
                receiveMaximum,
                budget,
                qos2Store,
                limits,
                rules,
                tracing,
                exactlyOnce);
    }

    public InboundPublishServices withTracing(PublishTracing publishTracing) {
        return new InboundPublishServices(
                nodeId,
                producer,
                disconnector,
                metrics,
                receiveMaximum,
                budget,
                qos2Store,
                limits,
                mappings,
                publishTracing,
                exactlyOnce);
    }

    public InboundPublishServices withExactlyOnce(ExactlyOnceQos2 qos2) {
        return new InboundPublishServices(
                nodeId,
                producer,
                disconnector,
                metrics,
                receiveMaximum,
                budget,
                qos2Store,
                limits,
                mappings,
                tracing,
                qos2);
    }
}
