package io.tributary.transport.listener;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelPipeline;
import io.tributary.transport.config.TransportProperties;
import io.tributary.transport.limits.LimitRefusals;
import io.tributary.transport.listener.proxy.ProxyProtocolInitializer;
import io.tributary.transport.listener.proxy.ProxyProtocolProperties;
import io.tributary.transport.listener.tls.ReloadingSslContext;
import io.tributary.transport.listener.tls.TlsChannelInitializer;
import io.tributary.transport.listener.tls.TlsContextLoader;
import io.tributary.transport.listener.websocket.OriginCheckHandler;
import io.tributary.transport.listener.websocket.OriginPolicy;
import io.tributary.transport.listener.websocket.WebSocketChannelInitializer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Which listeners a node opens, from its settings: plain MQTT unless it is turned off; MQTT over TLS and secure WebSocket when a
 * certificate is configured and their port is not 0; plain WebSocket when its port is not 0. With the PROXY protocol
 * on, each of them reads a PROXY header first ({@link ProxyProtocolInitializer}) and builds its pipeline after it.
 * Both WebSocket listeners take upgrades from the web pages the origin policy allows.
 *
 * @param tls the certificate holder shared by the TLS and secure WebSocket listeners, or null
 */
public record ListenerEndpoints(List<MqttListener.Endpoint> endpoints, ReloadingSslContext tls) {

    public static final String TLS = "mqtt-tls";
    public static final String WEBSOCKET = "mqtt-ws";
    public static final String SECURE_WEBSOCKET = "mqtt-wss";
    /** The WebSocket upgrade request must arrive within this time (the MQTT connect timeout covers CONNECT). */
    private static final Duration UPGRADE_TIMEOUT = Duration.ofSeconds(10);

    public static ListenerEndpoints of(
            TransportProperties properties,
            MqttChannelInitializer mqtt,
            ProxyProtocolProperties proxy,
            OriginPolicy origins,
            LimitRefusals refusals)
            throws Exception {
        TransportProperties.Tls tlsSettings = properties.tls();
        TransportProperties.WebSocket ws = properties.websocket();
        List<MqttListener.Endpoint> endpoints = new ArrayList<>();
        if (properties.mqtt().plainEnabled()) {
            endpoints.add(new MqttListener.Endpoint(
                    MqttListener.PLAIN,
                    properties.mqtt().port(),
                    behind(proxy, refusals, mqtt, mqtt::addMqttHandlers),
                    "MQTT_PORT"));
        }
        ReloadingSslContext tls = null;
        if (tlsSettings.enabled() || ws.secureEnabled(tlsSettings)) {
            tls = new ReloadingSslContext(new TlsContextLoader(tlsSettings), tlsSettings.reloadInterval());
        }
        if (tlsSettings.enabled()) {
            TlsChannelInitializer tlsListener =
                    new TlsChannelInitializer(tls, tlsSettings.handshakeTimeout(), mqtt::addMqttHandlers);
            endpoints.add(new MqttListener.Endpoint(
                    TLS,
                    tlsSettings.port(),
                    behind(proxy, refusals, tlsListener, tlsListener::addTlsAndMqtt),
                    "MQTT_TLS_PORT"));
        }
        int maxPacketSize = properties.mqtt().maxPacketSize();
        OriginCheckHandler originCheck = new OriginCheckHandler(origins, refusals);
        if (ws.enabled()) {
            WebSocketChannelInitializer wsListener = new WebSocketChannelInitializer(
                    ws.path(), maxPacketSize, null, null, UPGRADE_TIMEOUT, originCheck, mqtt::addMqttHandlers);
            endpoints.add(new MqttListener.Endpoint(
                    WEBSOCKET,
                    ws.port(),
                    behind(proxy, refusals, wsListener, wsListener::addWebSocket),
                    "MQTT_WS_PORT"));
        }
        if (ws.secureEnabled(tlsSettings)) {
            WebSocketChannelInitializer wssListener = new WebSocketChannelInitializer(
                    ws.path(),
                    maxPacketSize,
                    tls,
                    tlsSettings.handshakeTimeout(),
                    UPGRADE_TIMEOUT,
                    originCheck,
                    mqtt::addMqttHandlers);
            endpoints.add(new MqttListener.Endpoint(
                    SECURE_WEBSOCKET,
                    ws.securePort(),
                    behind(proxy, refusals, wssListener, wssListener::addWebSocket),
                    "MQTT_WSS_PORT"));
        }
        return new ListenerEndpoints(endpoints, tls);
    }

    /** The listener's own initializer, or with the PROXY protocol on, the header first and its pipeline after it. */
    private static ChannelHandler behind(
            ProxyProtocolProperties proxy,
            LimitRefusals refusals,
            ChannelHandler listener,
            Consumer<ChannelPipeline> listenerPipeline) {
        return proxy.enabled() ? new ProxyProtocolInitializer(proxy, listenerPipeline, refusals) : listener;
    }
}
