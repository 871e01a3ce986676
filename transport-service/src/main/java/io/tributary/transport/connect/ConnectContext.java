package io.tributary.transport.connect;

import io.tributary.sessionqueue.InboundQos2Store;
import io.tributary.transport.config.TransportProperties;
import io.tributary.transport.connection.ConnectionRegistry;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.index.LocalSubscriptions;
import io.tributary.transport.liveness.NodeRegistration;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.sessionclient.SessionServiceClient;
import io.tributary.transport.sessionqueue.SessionQueueReader;
import io.tributary.transport.uplink.PublishProducer;

/**
 * The collaborators a connect needs, bundled so a {@link ConnectHandler} can be created per channel cheaply.
 *
 * @param inboundQos2     null: QoS 2 packet ids are not kept across connections (tests without Redis)
 * @param qos2ExactlyOnce exactly-once QoS 2 into Kafka is on: the session's incarnation is read at CONNECT
 */
public record ConnectContext(
        TransportProperties properties,
        SessionServiceClient sessions,
        ConnectionRegistry registry,
        LocalSubscriptions subscriptions,
        PublishProducer producer,
        Disconnector disconnector,
        TransportMetrics metrics,
        NodeRegistration liveness,
        SessionQueueReader queueReader,
        InboundQos2Store inboundQos2,
        boolean qos2ExactlyOnce) {

    public ConnectContext(
            TransportProperties properties,
            SessionServiceClient sessions,
            ConnectionRegistry registry,
            LocalSubscriptions subscriptions,
            PublishProducer producer,
            Disconnector disconnector,
            TransportMetrics metrics,
            NodeRegistration liveness,
            SessionQueueReader queueReader,
            InboundQos2Store inboundQos2) {
        this(
                properties,
                sessions,
                registry,
                subscriptions,
                producer,
                disconnector,
                metrics,
                liveness,
                queueReader,
                inboundQos2,
                false);
    }

    /** Without inbound QoS 2 ids across connections (tests without Redis). */
    public ConnectContext(
            TransportProperties properties,
            SessionServiceClient sessions,
            ConnectionRegistry registry,
            LocalSubscriptions subscriptions,
            PublishProducer producer,
            Disconnector disconnector,
            TransportMetrics metrics,
            NodeRegistration liveness,
            SessionQueueReader queueReader) {
        this(
                properties,
                sessions,
                registry,
                subscriptions,
                producer,
                disconnector,
                metrics,
                liveness,
                queueReader,
                null);
    }
}
