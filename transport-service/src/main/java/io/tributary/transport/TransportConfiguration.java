package io.tributary.transport;

import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.kafka.tracing.HopTracing;
import io.tributary.kafka.tracing.TracingProperties;
import io.tributary.transport.config.TransportProperties;
import io.tributary.transport.connection.ConnectionRegistry;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.index.LocalSubscriptions;
import io.tributary.transport.metering.TenantMeters;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.sys.SysProperties;
import io.tributary.transport.sys.SysStatsPublisher;
import io.tributary.transport.uplink.PublishProducer;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the transport node's core: its metrics, the registry of its connections and subscriptions, the one disconnect
 * path, keep-alive and $SYS. The other areas are wired next to it, one configuration each: the Kafka uplink
 * ({@link KafkaUplinkConfiguration}), exactly-once QoS 2 ({@link Qos2Configuration}), session-service and the session
 * queues ({@link SessionStoresConfiguration}), delivery ({@link DeliveryConfiguration}), limits and tenant quotas
 * ({@link LimitsConfiguration}) and the MQTT pipeline ({@link ListenerConfiguration}).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(TracingProperties.class)
public class TransportConfiguration {

    @Bean
    TransportMetrics transportMetrics(MeterRegistry registry, ConnectionRegistry connections) {
        TransportMetrics metrics = new TransportMetrics(registry);
        metrics.gaugeConnections(connections::size);
        metrics.gaugeOutboundHeldBytes(connections::outboundBytesHeld);
        metrics.gaugeNettyMemory(io.netty.buffer.ByteBufAllocator.DEFAULT);
        return metrics;
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    SysStatsPublisher sysStatsPublisher(
            TransportProperties properties,
            SysProperties sys,
            PublishProducer producer,
            TransportMetrics metrics,
            ConnectionRegistry connections) {
        return new SysStatsPublisher(properties.nodeId(), sys.interval(), producer, metrics, connections::size);
    }

    @Bean
    ConnectionRegistry connectionRegistry(TenantMeters tenantMeters) {
        return new ConnectionRegistry(tenantMeters);
    }

    /** Silent clients are closed at most half a second after 1.5 x their keep alive (the shortest is 1.5 s). */
    @Bean(initMethod = "start", destroyMethod = "close")
    io.tributary.transport.connection.KeepAliveWatch keepAliveWatch(
            ConnectionRegistry registry, Disconnector disconnector) {
        return new io.tributary.transport.connection.KeepAliveWatch(
                registry, disconnector, java.time.Duration.ofMillis(500));
    }

    @Bean
    LocalSubscriptions localSubscriptions() {
        return new LocalSubscriptions();
    }

    @Bean
    Disconnector disconnector(TransportMetrics metrics) {
        return new Disconnector(metrics);
    }

    /** The publish and deliver spans, when tracing is on; closed (what ended exported) after the node has stopped. */
    @Bean(destroyMethod = "close")
    HopTracing hopTracing(TracingProperties tracing, TransportProperties properties) {
        return HopTracing.start(tracing, "tributary-transport", properties.nodeId());
    }
}
