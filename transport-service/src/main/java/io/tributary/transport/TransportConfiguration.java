package io.tributary.transport;

import io.lettuce.core.codec.ByteArrayCodec;
import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.common.kafka.KafkaClients;
import io.tributary.common.kafka.TopicLayout;
import io.tributary.common.kafka.TopicNames;
import io.tributary.kafka.tracing.HopTracing;
import io.tributary.kafka.tracing.TracingProperties;
import io.tributary.redis.ManagedRedisConnection;
import io.tributary.redis.RedisClientFactory;
import io.tributary.redis.RedisSettings;
import io.tributary.sessionqueue.RedisQueueHold;
import io.tributary.sessionqueue.RedisQueueReader;
import io.tributary.transport.backpressure.UplinkBudget;
import io.tributary.transport.config.TransportProperties;
import io.tributary.transport.connect.ConnectHandler;
import io.tributary.transport.connect.ConnectionLifecycleHandler;
import io.tributary.transport.connection.ByteCountingHandler;
import io.tributary.transport.connection.ConnectionRegistry;
import io.tributary.transport.connection.DisconnectHandler;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.connection.MalformedPacketHandler;
import io.tributary.transport.connection.PingHandler;
import io.tributary.transport.connection.TerminalHandler;
import io.tributary.transport.delivery.DownlinkConsumer;
import io.tributary.transport.delivery.OutboundAckHandler;
import io.tributary.transport.delivery.OutboundDelivery;
import io.tributary.transport.index.LocalSubscriptions;
import io.tributary.transport.limits.AdmissionHandler;
import io.tributary.transport.limits.BlockListPoller;
import io.tributary.transport.limits.ClientLimits;
import io.tributary.transport.limits.ConnectAdmission;
import io.tributary.transport.limits.LimitRefusals;
import io.tributary.transport.limits.LimitsProperties;
import io.tributary.transport.limits.tenant.RedisQuotaCounters;
import io.tributary.transport.limits.tenant.TenantDeliveryQuotas;
import io.tributary.transport.limits.tenant.TenantPublishQuotas;
import io.tributary.transport.limits.tenant.TenantQuotaPoller;
import io.tributary.transport.listener.DrainProperties;
import io.tributary.transport.listener.ListenerEndpoints;
import io.tributary.transport.listener.MqttChannelInitializer;
import io.tributary.transport.listener.MqttListener;
import io.tributary.transport.liveness.NodeHeartbeat;
import io.tributary.transport.liveness.NodeRegistrationHealthIndicator;
import io.tributary.transport.mapping.MappingRuleFollower;
import io.tributary.transport.mapping.MappingRules;
import io.tributary.transport.metering.MeteringProperties;
import io.tributary.transport.metering.MeteringPublisher;
import io.tributary.transport.metering.TenantMeters;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.publish.InboundPublishHandler;
import io.tributary.transport.qos2.ExactlyOnceQos2;
import io.tributary.transport.qos2.Qos2MarkerIndex;
import io.tributary.transport.qos2.Qos2Properties;
import io.tributary.transport.qos2.TransactionalUplink;
import io.tributary.transport.replay.QueueReplay;
import io.tributary.transport.replay.ReplayProperties;
import io.tributary.transport.replay.Replays;
import io.tributary.transport.sessionclient.SessionServiceClient;
import io.tributary.transport.sessionqueue.SessionQueueReader;
import io.tributary.transport.subscribe.SubscribeHandler;
import io.tributary.transport.sys.SysProperties;
import io.tributary.transport.sys.SysStatsPublisher;
import io.tributary.transport.trace.PublishTracing;
import io.tributary.transport.trace.TraceProperties;
import io.tributary.transport.uplink.KafkaAvailability;
import io.tributary.transport.uplink.KafkaAvailabilityHealthIndicator;
import io.tributary.transport.uplink.PublishProducer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/** Wires the transport node: one Kafka producer, one downlink consumer, one MQTT listener. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(TracingProperties.class)
public class TransportConfiguration {

    @Bean
    TopicLayout topicLayout(TransportProperties properties) {
        return properties.kafka().topics();
    }

    /** Creates the shared topics and this node's downlink topic before anything consumes or produces. */
    @Bean(destroyMethod = "close")
    Admin kafkaAdmin(TransportProperties properties, TopicLayout layout, KafkaClients kafkaClients) {
        Admin admin = kafkaClients.admin(
                Map.of(AdminClientConfig.CLIENT_ID_CONFIG, "tributary-transport-admin-" + properties.nodeId()));
        kafkaClients.requireAuthenticated(admin, "transport node " + properties.nodeId(), Duration.ofSeconds(30));
        layout.ensureSharedTopics(admin);
        layout.ensureDownlinkTopic(admin, properties.nodeId());
        return admin;
    }

    @Bean(destroyMethod = "close")
    Producer<byte[], byte[]> publishKafkaProducer(
            TransportProperties properties, Admin kafkaAdmin, TransportMetrics metrics, KafkaClients kafkaClients) {
        TransportProperties.Kafka k = properties.kafka();
        Map<String, Object> config = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                k.bootstrapServers(),
                ProducerConfig.CLIENT_ID_CONFIG,
                "tributary-transport-" + properties.nodeId(),
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                true,
                ProducerConfig.LINGER_MS_CONFIG,
                k.lingerMs(),
                ProducerConfig.MAX_BLOCK_MS_CONFIG,
                (int) k.maxBlock().toMillis(),
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                (int) k.deliveryTimeout().toMillis(),
                // Kafka requires delivery.timeout.ms >= linger.ms + request.timeout.ms.
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                (int) Math.max(1, Math.min(10_000, k.deliveryTimeout().toMillis() - k.lingerMs())),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class);
        config = new java.util.HashMap<>(config);
        config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, k.compression().name);
        KafkaProducer<byte[], byte[]> producer = kafkaClients.producer(config);
        metrics.bindKafkaClients(producer);
        warmUp(producer);
        return producer;
    }

    /**
     * Fetches the publish topic's metadata before the listener opens: the first PUBLISH must not wait for it on an
     * event loop. Each attempt is bounded by the (small) max.block.ms, so retry for a while: a busy broker or machine
     * can take longer than one attempt right after start-up.
     */
    private static void warmUp(KafkaProducer<byte[], byte[]> producer) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                producer.partitionsFor(TopicNames.PUBLISH);
                return;
            } catch (org.apache.kafka.common.errors.TimeoutException e) {
                if (System.nanoTime() > deadline) {
                    producer.close(Duration.ZERO);
                    throw new IllegalStateException(
                            "no metadata for " + TopicNames.PUBLISH + " from Kafka within 60 s", e);
                }
            }
        }
    }

    @Bean
    TransportMetrics transportMetrics(MeterRegistry registry, ConnectionRegistry connections) {
        TransportMetrics metrics = new TransportMetrics(registry);
        metrics.gaugeConnections(connections::size);
        // Read off the event loops: a slightly stale sum is fine for a gauge.
        metrics.gaugeOutboundHeldBytes(() -> connections.all().stream()
                .mapToLong(c -> c.outbound().bytesHeld())
                .sum());
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

    /** This process's tenant usage counters; its start time tells its deltas from an earlier process's. */
    @Bean
    TenantMeters tenantMeters(TransportProperties properties) {
        return new TenantMeters(properties.nodeId(), System.currentTimeMillis(), System::currentTimeMillis);
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    MeteringPublisher meteringPublisher(
            TenantMeters tenantMeters, Producer<byte[], byte[]> publishKafkaProducer, MeteringProperties metering) {
        return new MeteringPublisher(
                tenantMeters, publishKafkaProducer, metering.interval(), System::currentTimeMillis);
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

    @Bean(destroyMethod = "close")
    KafkaAvailability kafkaAvailability(Admin kafkaAdmin) {
        return new KafkaAvailability(kafkaAdmin);
    }

    @Bean
    PublishProducer publishProducer(
            Producer<byte[], byte[]> publishKafkaProducer,
            TransportMetrics metrics,
            KafkaAvailability kafkaAvailability) {
        return new PublishProducer(publishKafkaProducer, metrics, kafkaAvailability);
    }

    @Bean
    MappingRules mappingRules(MeterRegistry registry) {
        MappingRules rules = new MappingRules();
        io.micrometer.core.instrument.Gauge.builder("tributary.mapping.rules", rules, MappingRules::size)
                .description("MQTT-to-Kafka mapping rules this node applies")
                .register(registry);
        return rules;
    }

    /** Started here, before the listener bean: the listener never opens with the node's rules missing. */
    @Bean(destroyMethod = "close")
    MappingRuleFollower mappingRuleFollower(
            TransportProperties properties,
            Producer<byte[], byte[]> publishKafkaProducer,
            MappingRules mappingRules,
            KafkaClients kafkaClients) {
        MappingRuleFollower follower =
                new MappingRuleFollower(kafkaClients, properties.nodeId(), publishKafkaProducer, mappingRules);
        follower.start(Duration.ofSeconds(60));
        return follower;
    }

    /** Off ({@code TRIBUTARY_QOS2_EXACTLY_ONCE=false}): a placeholder, so the listener bean always has one. */
    @Bean(destroyMethod = "close")
    Qos2Beans qos2Beans(
            TransportProperties properties,
            Qos2Properties qos2,
            Admin kafkaAdmin,
            TransportMetrics metrics,
            MeterRegistry registry,
            KafkaClients kafkaClients) {
        if (!qos2.exactlyOnce()) {
            return new Qos2Beans(null);
        }
        TransportProperties.Kafka k = properties.kafka();
        Map<String, Object> config = new java.util.HashMap<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                k.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                true,
                // Its own thread blocks, never an event loop: commitTransaction waits up to max.block.ms, which
                // must cover a commit's round trips, not the event loops' tiny bound.
                ProducerConfig.MAX_BLOCK_MS_CONFIG,
                (int) k.deliveryTimeout().toMillis(),
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                (int) k.deliveryTimeout().toMillis(),
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                (int) Math.max(1, Math.min(10_000, k.deliveryTimeout().toMillis())),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class,
                ProducerConfig.COMPRESSION_TYPE_CONFIG,
                k.compression().name));
        config.putAll(TransactionalUplink.transactionalSettings(properties.nodeId(), qos2.transactionTimeout()));
        TransactionalUplink uplink =
                new TransactionalUplink(properties.nodeId(), () -> kafkaClients.producer(config), metrics);
        Qos2MarkerIndex markers = new Qos2MarkerIndex(kafkaClients, properties.nodeId(), kafkaAdmin);
        io.micrometer.core.instrument.Gauge.builder("tributary.qos2.markers", markers, Qos2MarkerIndex::size)
                .description(
                        "QoS 2 publishes stored and not yet released (PUBREL), cluster-wide, as this node reads them")
                .register(registry);
        uplink.start();
        markers.start();
        return new Qos2Beans(new ExactlyOnceQos2(uplink, markers));
    }

    /** Holder of the optional exactly-once QoS 2 parts, closed with the context. */
    record Qos2Beans(ExactlyOnceQos2 exactlyOnce) implements AutoCloseable {
        @Override
        public void close() throws InterruptedException {
            if (exactlyOnce != null) {
                exactlyOnce.close();
            }
        }
    }

    @Bean
    UplinkBudget uplinkBudget(TransportProperties properties, TransportMetrics metrics) {
        return new UplinkBudget(
                properties.kafka().maxPendingBytesPerConnection().toBytes(),
                properties.kafka().maxPendingBytes().toBytes(),
                metrics);
    }

    @Bean
    Disconnector disconnector(TransportMetrics metrics) {
        return new Disconnector(metrics);
    }

    @Bean(destroyMethod = "shutdown")
    ExecutorService sessionClientExecutor() {
        AtomicInteger n = new AtomicInteger();
        return Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "session-client-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    @Bean
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

    @Bean
    OutboundDelivery outboundDelivery(
            TransportProperties properties,
            TransportMetrics metrics,
            Disconnector disconnector,
            RedisQueueReader sessionQueueStore,
            TenantDeliveryQuotas tenantDeliveryQuotas) {
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
        return delivery;
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

    /** The publish and deliver spans, when tracing is on; closed (what ended exported) after the node has stopped. */
    @Bean(destroyMethod = "close")
    HopTracing hopTracing(TracingProperties tracing, TransportProperties properties) {
        return HopTracing.start(tracing, "tributary-transport", properties.nodeId());
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

    @Bean
    LimitRefusals limitRefusals(MeterRegistry registry) {
        return new LimitRefusals(registry, System::nanoTime);
    }

    @Bean
    ConnectAdmission connectAdmission(LimitsProperties limits) {
        return new ConnectAdmission(limits, System::nanoTime);
    }

    /** The tenants' publish quotas, leased from counters in the node's Redis connection. */
    @Bean
    TenantPublishQuotas tenantPublishQuotas(
            ManagedRedisConnection<byte[], byte[]> sessionQueueRedis, MeterRegistry registry) {
        return new TenantPublishQuotas(new RedisQuotaCounters(sessionQueueRedis), registry);
    }

    /** The tenants' delivery quotas, leased like the publish quotas; its tick stops with the context. */
    @Bean(destroyMethod = "close")
    TenantDeliveryQuotas tenantDeliveryQuotas(
            ManagedRedisConnection<byte[], byte[]> sessionQueueRedis, MeterRegistry registry) {
        return new TenantDeliveryQuotas(new RedisQuotaCounters(sessionQueueRedis), registry);
    }

    @Bean
    TenantQuotaPoller tenantQuotaPoller(
            SessionServiceClient sessions,
            TenantPublishQuotas tenantPublishQuotas,
            TenantDeliveryQuotas tenantDeliveryQuotas,
            LimitsProperties limits) {
        return new TenantQuotaPoller(sessions, tenantPublishQuotas, tenantDeliveryQuotas, limits.tenantQuotaRefresh());
    }

    @Bean
    ClientLimits clientLimits(
            LimitsProperties limits, LimitRefusals refusals, TenantPublishQuotas tenantPublishQuotas) {
        return new ClientLimits(limits, refusals, System::nanoTime, tenantPublishQuotas);
    }

    @Bean
    BlockListPoller blockListPoller(
            SessionServiceClient sessions, ConnectAdmission admission, LimitsProperties limits) {
        return new BlockListPoller(sessions, admission, limits.blockListRefresh());
    }

    /** {@code kafka} in /actuator/health and the readiness group. */
    @Bean("kafka")
    KafkaAvailabilityHealthIndicator kafkaAvailabilityHealthIndicator(KafkaAvailability kafkaAvailability) {
        return new KafkaAvailabilityHealthIndicator(kafkaAvailability);
    }

    @Bean("nodeRegistration")
    NodeRegistrationHealthIndicator nodeRegistrationHealthIndicator(NodeHeartbeat nodeHeartbeat) {
        return new NodeRegistrationHealthIndicator(nodeHeartbeat);
    }

    @Bean
    MqttListener mqttListener(
            TransportProperties properties,
            SessionServiceClient sessions,
            ConnectionRegistry registry,
            LocalSubscriptions subscriptions,
            PublishProducer producer,
            Disconnector disconnector,
            TransportMetrics metrics,
            OutboundDelivery delivery,
            UplinkBudget uplinkBudget,
            SessionQueueReader queueReader,
            NodeHeartbeat nodeHeartbeat,
            RedisQueueReader sessionQueueStore,
            ConnectAdmission admission,
            ClientLimits clientLimits,
            LimitRefusals limitRefusals,
            DrainProperties drain,
            MappingRules mappingRules,
            MappingRuleFollower mappingRuleFollower,
            TraceProperties trace,
            HopTracing hopTracing,
            Qos2Beans qos2,
            Replays replays)
            throws Exception {
        String nodeId = properties.nodeId();
        ConnectHandler.ConnectContext connectContext = new ConnectHandler.ConnectContext(
                properties,
                sessions,
                registry,
                subscriptions,
                producer,
                disconnector,
                metrics,
                nodeHeartbeat,
                queueReader,
                sessionQueueStore,
                qos2.exactlyOnce() != null);
        MqttChannelInitializer.Handlers handlers = new MqttChannelInitializer.Handlers(
                new MalformedPacketHandler(disconnector, properties.mqtt().maxPacketSize()),
                new InboundPublishHandler(
                        nodeId,
                        producer,
                        disconnector,
                        metrics,
                        properties.mqtt().receiveMaximum(),
                        uplinkBudget,
                        sessionQueueStore,
                        clientLimits,
                        mappingRules,
                        new PublishTracing(hopTracing, trace.generate()),
                        qos2.exactlyOnce()),
                new SubscribeHandler(
                        nodeId, sessions, subscriptions, disconnector, delivery, metrics, clientLimits, replays),
                new OutboundAckHandler(delivery, metrics),
                new PingHandler(),
                new DisconnectHandler(disconnector),
                new ConnectionLifecycleHandler(nodeId, registry, subscriptions, sessions, producer, metrics),
                new TerminalHandler(disconnector),
                new ByteCountingHandler(metrics));
        MqttChannelInitializer mqtt = new MqttChannelInitializer(
                properties.mqtt().maxPacketSize(),
                connectContext,
                handlers,
                () -> new AdmissionHandler(admission, limitRefusals, disconnector, metrics));
        ListenerEndpoints listeners = ListenerEndpoints.of(properties, mqtt);
        return new MqttListener(
                properties.mqtt().host(),
                properties.mqtt().ioThreads(),
                listeners.endpoints(),
                registry,
                disconnector,
                listeners.tls(),
                drain);
    }
}
