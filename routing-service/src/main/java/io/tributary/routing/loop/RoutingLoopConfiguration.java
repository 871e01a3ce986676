package io.tributary.routing.loop;

import io.lettuce.core.codec.ByteArrayCodec;
import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.kafka.tracing.HopTracing;
import io.tributary.kafka.tracing.TracingProperties;
import io.tributary.redis.ManagedRedisConnection;
import io.tributary.redis.RedisClientFactory;
import io.tributary.redis.RedisSettings;
import io.tributary.routing.config.KafkaSettings;
import io.tributary.routing.config.RoutingProperties;
import io.tributary.routing.feed.FeedConsumers;
import io.tributary.routing.index.SubscriptionIndex;
import io.tributary.routing.metrics.RoutingMetrics;
import io.tributary.routing.queue.SessionQueueProperties;
import io.tributary.routing.queue.TenantQueueLimits;
import io.tributary.routing.queue.TenantQueuePoller;
import io.tributary.routing.queue.TenantQueueProperties;
import io.tributary.sessionqueue.QueueAppender;
import io.tributary.sessionqueue.RedisQueueAppender;
import java.time.Clock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.Producer;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/** Wires the routing loop and the state it shares with metrics and health. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(TracingProperties.class)
public class RoutingLoopConfiguration {

    @Bean
    public Clock clock() {
        return Clock.systemUTC();
    }

    /** The index of this process; the loop thread writes it, metrics and health read its counts. */
    @Bean
    public SubscriptionIndex subscriptionIndex() {
        return new SubscriptionIndex();
    }

    @Bean
    public RoutingLoop routingLoop(
            Admin admin,
            Producer<byte[], byte[]> downlinkProducer,
            FeedConsumers consumers,
            SubscriptionIndex index,
            RoutingMetrics metrics,
            RoutingStatus status,
            KafkaSettings kafka,
            RoutingProperties routing,
            QueueAppender queues,
            SessionQueueProperties queueProperties,
            HopTracing tracing) {
        return new RoutingLoop(
                admin,
                downlinkProducer,
                consumers,
                index,
                metrics,
                status,
                kafka,
                routing,
                queues,
                queueProperties,
                tracing);
    }

    /** The route spans, when tracing is on; closed (what ended exported) after the loop has stopped. */
    @Bean(destroyMethod = "close")
    public HopTracing hopTracing(TracingProperties tracing) {
        return HopTracing.start(tracing, "tributary-routing", HopTracing.hostName("routing"));
    }

    /** The one Redis connection of the process, for the session queues; closed after the loop has stopped. */
    @Bean(destroyMethod = "close")
    public ManagedRedisConnection<byte[], byte[]> sessionQueueRedis(
            SessionQueueProperties properties, MeterRegistry meters) {
        return RedisClientFactory.open(
                RedisSettings.of(properties.redisUrl(), properties.commandTimeout(), "tributary-routing"),
                ByteArrayCodec.INSTANCE,
                meters);
    }

    /** The session queues, each with its tenant's queued-message quota when lower than the global limit. */
    @Bean
    public TenantQueueLimits sessionQueueAppender(
            ManagedRedisConnection<byte[], byte[]> sessionQueueRedis,
            SessionQueueProperties properties,
            MeterRegistry meters) {
        return new TenantQueueLimits(
                new RedisQueueAppender(
                        sessionQueueRedis,
                        properties.limit(),
                        properties.limitBytes().toBytes(),
                        properties.fullPolicy()),
                properties.limit(),
                meters);
    }

    @Bean
    public TenantQueuePoller tenantQueuePoller(TenantQueueProperties properties, TenantQueueLimits limits) {
        return new TenantQueuePoller(properties, limits, JsonMapper.builder().build());
    }
}
