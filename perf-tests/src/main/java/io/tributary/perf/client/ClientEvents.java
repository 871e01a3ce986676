package io.tributary.perf.client;

/** What the orchestration hears from each connection. Called on the connection's event loop. */
public interface ClientEvents {

    /** Connected (and subscribed, for a subscriber): the client counts as established. */
    void ready(MqttLoadClient client);

    /** The connection attempt ended without becoming ready; {@code reason} says why. */
    void failed(MqttLoadClient client, String reason);
}
