package io.tributary.transport;

import io.tributary.common.kafka.KafkaClients;
import io.tributary.kafka.tracing.HopTracing;
import io.tributary.sessionqueue.RedisQueueHold;
import io.tributary.sessionqueue.RedisQueueReader;
import io.tributary.transport.config.TransportProperties;
import io.tributary.transport.connection.ConnectionRegistry;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.delivery.DownlinkConsumer;
import io.tributary.transport.delivery.NodeOutboundBudget;
import io.tributary.transport.delivery.OutboundDelivery;
import io.tributary.transport.index.LocalSubscriptions;
import io.tributary.transport.limits.tenant.TenantDeliveryQuotas;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.replay.QueueReplay;
import io.tributary.transport.replay.ReplayProperties;
import io.tributary.transport.replay.Replays;
import io.tributary.transport.sessionqueue.SessionQueueReader;
import org.apache.kafka.clients.admin.Admin;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The way out: the downlink consumer, the per-connection outbound delivery and replays. */
@Configuration(proxyBeanMethods = false)
class DeliveryConfiguration {

    @Bean
    OutboundDelivery outboundDelivery(
            TransportProperties properties,
            TransportMetrics metrics,
            Disconnector disconnector,
            RedisQueueReader sessionQueueStore,
            TenantDeliveryQuotas tenantDeliveryQuotas,
            ConnectionRegistry connections) {
        TransportProperties.Mqtt mqtt = properties.mqtt();
        OutboundDelivery delivery = new OutboundDelivery(
                metrics,
                disconnector,
                new OutboundDelivery.Limits(
                        mqtt.maxInflight(),
                        mqtt.maxQueuedPerConnection(),
                        mqtt.maxOutboundBytesPerConnection().toBytes(),
                        mqtt.slowConsumerPolicy()),
                sessionQueueStore);
        delivery.deliveryQuotas(tenantDeliveryQuotas);
        delivery.nodeBudget(new NodeOutboundBudget(
                NodeOutboundBudget.bytesFor(
                        mqtt.maxOutboundBytesPerNode().toBytes(),
                        Runtime.getRuntime().maxMemory()),
                connections::outboundBytesHeld));
        return delivery;
    }

    @Bean
    DownlinkConsumer downlinkConsumer(
            TransportProperties properties,
            Admin kafkaAdmin,
            LocalSubscriptions subscriptions,
            ConnectionRegistry registry,
            OutboundDelivery delivery,
            Disconnector disconnector,
            TransportMetrics metrics,
            SessionQueueReader queueReader,
            KafkaClients kafkaClients,
            HopTracing hopTracing) {
        return new DownlinkConsumer(
                properties.nodeId(),
                kafkaClients,
                subscriptions,
                registry,
                delivery,
                disconnector,
                metrics,
                queueReader,
                hopTracing);
    }

    @Bean(destroyMethod = "close")
    Replays replays(
            TransportProperties properties,
            ReplayProperties replay,
            OutboundDelivery delivery,
            Disconnector disconnector,
            TransportMetrics metrics,
            KafkaClients kafkaClients,
            RedisQueueHold sessionQueueHold,
            SessionQueueReader queueReader) {
        // Live messages held behind a history: as many as may wait behind a subscriber's in-flight window.
        return new Replays(
                properties.nodeId(),
                kafkaClients,
                replay,
                properties.mqtt().maxQueuedPerConnection(),
                delivery,
                disconnector,
                metrics,
                new QueueReplay(sessionQueueHold, queueReader, QueueReplay.holdTtl(replay)));
    }
}
