package io.tributary.it.support;

import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;
import org.eclipse.paho.mqttv5.client.IMqttToken;
import org.eclipse.paho.mqttv5.client.MqttAsyncClient;
import org.eclipse.paho.mqttv5.client.MqttCallback;
import org.eclipse.paho.mqttv5.client.MqttDisconnectResponse;
import org.eclipse.paho.mqttv5.common.MqttException;
import org.eclipse.paho.mqttv5.common.MqttMessage;
import org.eclipse.paho.mqttv5.common.packet.MqttProperties;

/** Client set-up shared by the MQTT tests: unique ids, and clients connected to one transport node. */
public final class Clients {

    private Clients() {}

    /** A unique client id or topic level; short enough for MQTT 3.1's 23-character client id limit. */
    public static String id(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** An HiveMQ MQTT 5 client for {@code port}, not yet connected. */
    public static Mqtt5BlockingClient hive5(int port, String clientId) {
        return com.hivemq.client.mqtt.MqttClient.builder()
                .useMqttVersion5()
                .identifier(clientId)
                .serverHost("127.0.0.1")
                .serverPort(port)
                .buildBlocking();
    }

    /** A Paho mqttv3 client connected with clean session at {@code version} (MqttConnectOptions.MQTT_VERSION_*). */
    public static MqttClient paho3(int port, String clientId, int version) throws Exception {
        MqttClient client = new MqttClient("tcp://127.0.0.1:" + port, clientId, new MemoryPersistence());
        client.connect(paho3Options(version));
        return client;
    }

    public static MqttConnectOptions paho3Options(int version) {
        MqttConnectOptions options = new MqttConnectOptions();
        options.setCleanSession(true);
        options.setMqttVersion(version);
        options.setConnectionTimeout(10);
        options.setAutomaticReconnect(false);
        return options;
    }

    /** A connected Paho mqttv5 client whose messages land in {@code received}. */
    public static MqttAsyncClient paho5(int port, BlockingQueue<MqttMessage> received) throws MqttException {
        MqttAsyncClient client = new MqttAsyncClient(
                "tcp://127.0.0.1:" + port, id("paho5"), new org.eclipse.paho.mqttv5.client.persist.MemoryPersistence());
        client.setCallback(new MqttCallback() {
            @Override
            public void messageArrived(String topic, MqttMessage message) {
                received.add(message);
            }

            @Override
            public void disconnected(MqttDisconnectResponse response) {}

            @Override
            public void mqttErrorOccurred(MqttException exception) {}

            @Override
            public void deliveryComplete(IMqttToken token) {}

            @Override
            public void connectComplete(boolean reconnect, String serverURI) {}

            @Override
            public void authPacketArrived(int reasonCode, MqttProperties properties) {}
        });
        client.connect().waitForCompletion(10_000);
        return client;
    }
}
