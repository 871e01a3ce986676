package io.tributary.transport.listener;

import io.tributary.transport.config.TransportProperties;
import io.tributary.transport.listener.tls.ReloadingSslContext;
import io.tributary.transport.listener.tls.TlsChannelInitializer;
import io.tributary.transport.listener.tls.TlsContextLoader;
import io.tributary.transport.listener.websocket.WebSocketChannelInitializer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Which listeners a node opens, from its settings: plain MQTT always; MQTT over TLS and secure WebSocket when a
 * certificate is configured and their port is not 0; plain WebSocket when its port is not 0.
 *
 * @param tls the certificate holder shared by the TLS and secure WebSocket listeners, or null
 */
public record ListenerEndpoints(List<MqttListener.Endpoint> endpoints, ReloadingSslContext tls) {

    public static final String TLS = "mqtt-tls";
    public static final String WEBSOCKET = "mqtt-ws";
    public static final String SECURE_WEBSOCKET = "mqtt-wss";
    /** The WebSocket upgrade request must arrive within this time (the MQTT connect timeout covers CONNECT). */
    private static final Duration UPGRADE_TIMEOUT = Duration.ofSeconds(10);

    public static ListenerEndpoints of(TransportProperties properties, MqttChannelInitializer mqtt) throws Exception {
        TransportProperties.Tls tlsSettings = properties.tls();
        TransportProperties.WebSocket ws = properties.websocket();
        List<MqttListener.Endpoint> endpoints = new ArrayList<>();
        endpoints.add(
                new MqttListener.Endpoint(MqttListener.PLAIN, properties.mqtt().port(), mqtt, "MQTT_PORT"));
        ReloadingSslContext tls = null;
        if (tlsSettings.enabled() || ws.secureEnabled(tlsSettings)) {
            tls = new ReloadingSslContext(new TlsContextLoader(tlsSettings), tlsSettings.reloadInterval());
        }
        if (tlsSettings.enabled()) {
            endpoints.add(new MqttListener.Endpoint(
                    TLS,
                    tlsSettings.port(),
                    new TlsChannelInitializer(tls, tlsSettings.handshakeTimeout(), mqtt::addMqttHandlers),
                    "MQTT_TLS_PORT"));
        }
        int maxPacketSize = properties.mqtt().maxPacketSize();
        if (ws.enabled()) {
            endpoints.add(new MqttListener.Endpoint(
                    WEBSOCKET,
                    ws.port(),
                    new WebSocketChannelInitializer(
                            ws.path(), maxPacketSize, null, null, UPGRADE_TIMEOUT, mqtt::addMqttHandlers),
                    "MQTT_WS_PORT"));
        }
        if (ws.secureEnabled(tlsSettings)) {
            endpoints.add(new MqttListener.Endpoint(
                    SECURE_WEBSOCKET,
                    ws.securePort(),
                    new WebSocketChannelInitializer(
                            ws.path(),
                            maxPacketSize,
                            tls,
                            tlsSettings.handshakeTimeout(),
                            UPGRADE_TIMEOUT,
                            mqtt::addMqttHandlers),
                    "MQTT_WSS_PORT"));
        }
        return new ListenerEndpoints(endpoints, tls);
    }
}
