package io.tributary.perf.scenario;

import io.netty.handler.codec.mqtt.MqttVersion;

/** The MQTT protocol levels the generator speaks. */
public enum MqttProtocol {
    V3_1_1(MqttVersion.MQTT_3_1_1, "3.1.1"),
    V5(MqttVersion.MQTT_5, "5");

    private final MqttVersion nettyVersion;
    private final String label;

    MqttProtocol(MqttVersion nettyVersion, String label) {
        this.nettyVersion = nettyVersion;
        this.label = label;
    }

    public MqttVersion nettyVersion() {
        return nettyVersion;
    }

    public String label() {
        return label;
    }

    public static MqttProtocol parse(String text) {
        return switch (text.trim()) {
            case "3.1.1", "3", "4", "311" -> V3_1_1;
            case "5", "5.0" -> V5;
            default -> throw new IllegalArgumentException("'" + text + "' is not an MQTT version (use 3.1.1 or 5)");
        };
    }
}
