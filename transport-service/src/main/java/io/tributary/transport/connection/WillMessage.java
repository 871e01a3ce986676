package io.tributary.transport.connection;

import io.netty.handler.codec.mqtt.MqttProperties;
import io.tributary.common.tenant.TenantNamespace;

/**
 * The will a client left in CONNECT, published if its connection ends without a normal DISCONNECT.
 *
 * @param properties the CONNECT's will properties (MQTT 5), or null for MQTT 3.x
 */
public record WillMessage(String topic, byte[] payload, int qos, boolean retain, MqttProperties properties) {

    /** This will with its topic mapped into {@code namespace} (as session-service stores it too). */
    public WillMessage inNamespace(TenantNamespace namespace) {
        return namespace.global() ? this : new WillMessage(namespace.topic(topic), payload, qos, retain, properties);
    }

    /** MQTT 5 Will Delay Interval (3.1.3.2.2), 0 when absent or for MQTT 3.x. */
    public long delaySeconds() {
        if (properties == null) {
            return 0;
        }
        MqttProperties.MqttProperty<?> p = properties.getProperty(MqttProperties.WILL_DELAY_INTERVAL);
        return p == null ? 0 : Integer.toUnsignedLong((Integer) p.value());
    }
}
