package io.tributary.routing.sys;

import io.tributary.kafka.sys.HopLatencyStatistics;
import io.tributary.routing.config.KafkaSettings;
import io.tributary.routing.metrics.RoutingMetrics;
import org.apache.kafka.clients.producer.Producer;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The router's {@code $SYS} figures, sent with the downlink producer (closed before it: it depends on it). */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RouterSysProperties.class)
public class RouterSysConfiguration {

    @Bean(initMethod = "start", destroyMethod = "close")
    public RouterSysPublisher routerSysPublisher(
            RouterSysProperties sys,
            KafkaSettings kafka,
            Producer<byte[], byte[]> downlinkProducer,
            RoutingMetrics metrics) {
        return new RouterSysPublisher(
                kafka.group().instanceName(),
                sys.interval(),
                downlinkProducer,
                new HopLatencyStatistics(metrics.hopTimers()));
    }
}
