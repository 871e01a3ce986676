package io.tributary.routing.config;

import io.tributary.common.kafka.KafkaClientProperties;
import io.tributary.common.kafka.KafkaClients;
import io.tributary.kafka.support.KafkaClientsFromEnvironment;
import io.tributary.routing.feed.FeedConsumers;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The Kafka clients of the process: one Admin, one producer (shared by everything that writes), and the factory of
 * the two consumers that the routing loop creates on its own thread (a consumer is single-threaded). All of them are
 * made by {@link KafkaClients}, which adds the operator's pass-through properties bound from
 * {@value KafkaClientProperties#PREFIX} as every service binds them ({@link KafkaClientsFromEnvironment}).
 */
@Configuration(proxyBeanMethods = false)
public class KafkaClientsConfiguration {

    /**
     * Every client id starts with this, so broker-side quotas and logs name the routing service; the instance ends it
     * ({@link io.tributary.common.kafka.GroupMembership#clientId}).
     */
    public static final String CLIENT_ID_PREFIX = "tributary-routing";

    @Bean
    public KafkaClients kafkaClients(KafkaSettings kafka, Environment environment) {
        return KafkaClientsFromEnvironment.create(kafka.bootstrapServers(), environment);
    }

    @Bean(destroyMethod = "close")
    public Admin kafkaAdmin(KafkaSettings kafka, KafkaClients clients) {
        Map<String, Object> config = new HashMap<>();
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, kafka.group().clientId(CLIENT_ID_PREFIX, "admin"));
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int)
                kafka.requestTimeout().toMillis());
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int)
                kafka.requestTimeout().toMillis());
        Admin admin = clients.admin(config);
        clients.requireAuthenticated(admin, CLIENT_ID_PREFIX, kafka.requestTimeout());
        return admin;
    }

    @Bean(destroyMethod = "close")
    public Producer<byte[], byte[]> downlinkProducer(
            KafkaSettings kafka,
            RoutingProperties routing,
            io.tributary.routing.metrics.RoutingMetrics metrics,
            KafkaClients clients) {
        long deliveryTimeoutMs = routing.produceTimeout().toMillis();
        // Kafka requires delivery.timeout.ms >= linger.ms + request.timeout.ms.
        int lingerMs = (int) routing.producerLinger().toMillis();
        long requestTimeoutMs = Math.min(kafka.requestTimeout().toMillis(), deliveryTimeoutMs - lingerMs);
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.CLIENT_ID_CONFIG, kafka.group().clientId(CLIENT_ID_PREFIX, "producer"));
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.LINGER_MS_CONFIG, lingerMs);
        config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, kafka.compression().name);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) deliveryTimeoutMs);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) requestTimeoutMs);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, routing.produceMaxBlock().toMillis());
        KafkaProducer<byte[], byte[]> producer = clients.producer(config);
        metrics.bindKafkaClients(producer);
        return producer;
    }

    @Bean
    public FeedConsumers feedConsumers(
            KafkaSettings kafka, RoutingProperties routing, KafkaClients clients, Admin kafkaAdmin) {
        Map<String, Object> common = new HashMap<>();
        common.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, (int)
                kafka.requestTimeout().toMillis());
        common.put(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, (int)
                kafka.requestTimeout().toMillis());
        return new FeedConsumers(
                clients,
                kafkaAdmin,
                common,
                CLIENT_ID_PREFIX,
                routing.groupId(),
                kafka.group(),
                routing.maxPollRecords());
    }
}
