package io.tributary.transport;

import io.tributary.kafka.tracing.HopTracing;
import io.tributary.sessionqueue.RedisQueueReader;
import io.tributary.transport.backpressure.UplinkBudget;
import io.tributary.transport.config.TransportProperties;
import io.tributary.transport.connect.ConnectContext;
import io.tributary.transport.connect.ConnectionLifecycleHandler;
import io.tributary.transport.connection.ByteCountingHandler;
import io.tributary.transport.connection.ConnectionRegistry;
import io.tributary.transport.connection.DisconnectHandler;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.connection.MalformedPacketHandler;
import io.tributary.transport.connection.PingHandler;
import io.tributary.transport.connection.TerminalHandler;
import io.tributary.transport.delivery.OutboundAckHandler;
import io.tributary.transport.delivery.OutboundDelivery;
import io.tributary.transport.index.LocalSubscriptions;
import io.tributary.transport.limits.AdmissionHandler;
import io.tributary.transport.limits.ClientLimits;
import io.tributary.transport.limits.ConnectAdmission;
import io.tributary.transport.limits.LimitRefusals;
import io.tributary.transport.listener.DrainProperties;
import io.tributary.transport.listener.ListenerEndpoints;
import io.tributary.transport.listener.MqttChannelInitializer;
import io.tributary.transport.listener.MqttListener;
import io.tributary.transport.listener.proxy.ProxyProtocolProperties;
import io.tributary.transport.listener.websocket.WebSocketOriginProperties;
import io.tributary.transport.liveness.NodeHeartbeat;
import io.tributary.transport.mapping.MappingRuleFollower;
import io.tributary.transport.mapping.MappingRules;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.publish.InboundPublishHandler;
import io.tributary.transport.publish.InboundPublishServices;
import io.tributary.transport.replay.Replays;
import io.tributary.transport.sessionclient.SessionServiceClient;
import io.tributary.transport.sessionqueue.SessionQueueReader;
import io.tributary.transport.subscribe.SubscribeHandler;
import io.tributary.transport.trace.PublishTracing;
import io.tributary.transport.trace.TraceProperties;
import io.tributary.transport.uplink.PublishProducer;
import io.tributary.transport.warmup.WarmUp;
import io.tributary.transport.warmup.WarmUpHealthIndicator;
import io.tributary.transport.warmup.WarmUpProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The MQTT listeners, the pipeline of handlers every connection gets, and the warm-up through it. */
@Configuration(proxyBeanMethods = false)
class ListenerConfiguration {

    @Bean
    MqttChannelInitializer mqttPipeline(
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
            MappingRules mappingRules,
            MappingRuleFollower mappingRuleFollower,
            TraceProperties trace,
            HopTracing hopTracing,
            Qos2Configuration.Qos2Beans qos2,
            Replays replays) {
        String nodeId = properties.nodeId();
        ConnectContext connectContext = new ConnectContext(
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
                new InboundPublishHandler(new InboundPublishServices(
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
                        qos2.exactlyOnce())),
                new SubscribeHandler(
                        nodeId, sessions, subscriptions, disconnector, delivery, metrics, clientLimits, replays),
                new OutboundAckHandler(delivery, metrics),
                new PingHandler(),
                new DisconnectHandler(disconnector),
                new ConnectionLifecycleHandler(nodeId, registry, subscriptions, sessions, producer, metrics),
                new TerminalHandler(disconnector),
                new ByteCountingHandler(metrics));
        return new MqttChannelInitializer(
                properties.mqtt().maxPacketSize(),
                connectContext,
                handlers,
                () -> new AdmissionHandler(admission, limitRefusals, disconnector, metrics));
    }

    @Bean
    MqttListener mqttListener(
            TransportProperties properties,
            MqttChannelInitializer mqtt,
            ConnectionRegistry registry,
            Disconnector disconnector,
            DrainProperties drain,
            ProxyProtocolProperties proxyProtocol,
            WebSocketOriginProperties webSocketOrigins,
            LimitRefusals limitRefusals)
            throws Exception {
        ListenerEndpoints listeners =
                ListenerEndpoints.of(properties, mqtt, proxyProtocol, webSocketOrigins.policy(), limitRefusals);
        return new MqttListener(
                properties.mqtt().host(),
                properties.mqtt().ioThreads(),
                listeners.endpoints(),
                registry,
                disconnector,
                listeners.tls(),
                drain);
    }

    @Bean
    WarmUp warmUp(
            TransportProperties properties,
            WarmUpProperties warmUp,
            MqttChannelInitializer mqtt,
            NodeHeartbeat nodeHeartbeat) {
        return new WarmUp(
                properties.nodeId(),
                warmUp,
                mqtt,
                nodeHeartbeat,
                properties.mqtt().maxPacketSize());
    }

    @Bean
    WarmUpHealthIndicator warmUpHealthIndicator(WarmUp warmUp) {
        return new WarmUpHealthIndicator(warmUp);
    }
}
