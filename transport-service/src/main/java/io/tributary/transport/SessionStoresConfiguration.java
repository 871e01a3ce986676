package io.tributary.transport;

import io.lettuce.core.codec.ByteArrayCodec;
import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.common.concurrent.DaemonThreads;
import io.tributary.kafka.tracing.HopTracing;
import io.tributary.redis.ManagedRedisConnection;
import io.tributary.redis.RedisClientFactory;
import io.tributary.redis.RedisSettings;
import io.tributary.sessionqueue.RedisQueueHold;
import io.tributary.sessionqueue.RedisQueueReader;
import io.tributary.transport.config.TransportProperties;
import io.tributary.transport.connection.ConnectionRegistry;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.delivery.OutboundDelivery;
import io.tributary.transport.index.LocalSubscriptions;
import io.tributary.transport.liveness.NodeHeartbeat;
import io.tributary.transport.liveness.NodeRegistrationHealthIndicator;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.replay.QueueReplay;
import io.tributary.transport.replay.ReplayProperties;
import io.tributary.transport.sessionclient.SessionServiceClient;
import io.tributary.transport.sessionqueue.SessionQueueReader;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/** What the node keeps outside itself: session-service (calls, heartbeat) and the session queues in Redis. */
@Configuration(proxyBeanMethods = false)
class SessionStoresConfiguration {

    @Bean(destroyMethod = "shutdown")
    ExecutorService sessionClientExecutor() {
        return Executors.newFixedThreadPool(4, DaemonThreads.numbered("session-client-"));
    }

    @Bean(destroyMethod = "close")
    SessionServiceClient sessionServiceClient(
            TransportProperties properties,
            ExecutorService sessionClientExecutor,
            JsonMapper jsonMapper,
            io.micrometer.core.instrument.MeterRegistry registry) {
        SessionServiceClient client = new SessionServiceClient(
                properties.session().url(),
                properties.session().requestTimeout(),
                sessionClientExecutor,
                jsonMapper,
                properties.session().internalToken(),
                properties.session().batching());
        client.bindMetrics(registry);
        return client;
    }

    /** The node's one Redis connection (session queues, inbound QoS 2 ids); closed after everything using it. */
    @Bean(destroyMethod = "close")
    ManagedRedisConnection<byte[], byte[]> sessionQueueRedis(TransportProperties properties, MeterRegistry registry) {
        return RedisClientFactory.open(
                RedisSettings.of(properties.redis().url(), properties.redis().commandTimeout(), "tributary-transport"),
                ByteArrayCodec.INSTANCE,
                registry);
    }

    /** Reads the session queues, keeps the inbound QoS 2 ids ({@link io.tributary.sessionqueue.InboundQos2Store}). */
    @Bean
    RedisQueueReader sessionQueueStore(ManagedRedisConnection<byte[], byte[]> sessionQueueRedis) {
        return new RedisQueueReader(sessionQueueRedis);
    }

    /** Replays' holds of session queues (see {@link QueueReplay}). */
    @Bean
    RedisQueueHold sessionQueueHold(ManagedRedisConnection<byte[], byte[]> sessionQueueRedis) {
        return new RedisQueueHold(sessionQueueRedis);
    }

    @Bean
    SessionQueueReader sessionQueueReader(
            RedisQueueReader sessionQueueStore,
            RedisQueueHold sessionQueueHold,
            ReplayProperties replay,
            LocalSubscriptions subscriptions,
            OutboundDelivery delivery,
            TransportMetrics metrics,
            ConnectionRegistry registry,
            HopTracing hopTracing) {
        return new SessionQueueReader(
                sessionQueueStore,
                sessionQueueHold,
                QueueReplay.holdTtl(replay),
                subscriptions,
                delivery,
                metrics,
                registry,
                hopTracing);
    }

    @Bean
    NodeHeartbeat nodeHeartbeat(
            TransportProperties properties,
            SessionServiceClient sessions,
            ConnectionRegistry registry,
            Disconnector disconnector) {
        return new NodeHeartbeat(
                properties.nodeId(),
                sessions,
                properties.session().heartbeatInterval(),
                properties.session().requestTimeout(),
                registry,
                disconnector);
    }

    @Bean("nodeRegistration")
    NodeRegistrationHealthIndicator nodeRegistrationHealthIndicator(NodeHeartbeat nodeHeartbeat) {
        return new NodeRegistrationHealthIndicator(nodeHeartbeat);
    }
}
