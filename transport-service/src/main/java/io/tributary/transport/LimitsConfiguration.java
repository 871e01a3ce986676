package io.tributary.transport;

import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.redis.ManagedRedisConnection;
import io.tributary.transport.config.TransportProperties;
import io.tributary.transport.limits.BlockListPoller;
import io.tributary.transport.limits.ClientLimits;
import io.tributary.transport.limits.ConnectAdmission;
import io.tributary.transport.limits.LimitRefusals;
import io.tributary.transport.limits.LimitsProperties;
import io.tributary.transport.limits.tenant.RedisQuotaCounters;
import io.tributary.transport.limits.tenant.TenantDeliveryQuotas;
import io.tributary.transport.limits.tenant.TenantPublishQuotas;
import io.tributary.transport.limits.tenant.TenantQuotaPoller;
import io.tributary.transport.metering.MeteringProperties;
import io.tributary.transport.metering.MeteringPublisher;
import io.tributary.transport.metering.TenantMeters;
import io.tributary.transport.sessionclient.SessionServiceClient;
import org.apache.kafka.clients.producer.Producer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Admission and limits: per client and per IP, the block list, tenants' quotas and their usage meters. */
@Configuration(proxyBeanMethods = false)
class LimitsConfiguration {

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
}
