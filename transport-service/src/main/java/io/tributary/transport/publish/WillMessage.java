package io.tributary.transport.publish;

import io.netty.handler.codec.mqtt.MqttProperties;

/** The will a client left in CONNECT, published if its connection ends without a normal DISCONNECT. */
public record WillMessage(String topic, byte[] payload, int qos, boolean retain, MqttProperties properties) {
}
