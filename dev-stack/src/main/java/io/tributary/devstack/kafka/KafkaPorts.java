package io.tributary.devstack.kafka;

import io.tributary.devstack.net.Ports;

/**
 * The client and controller ports of a single-node broker on loopback, chosen once: a broker restarted on the same
 * data directory comes back at the same address.
 */
record KafkaPorts(int client, int controller) {

    private static final String HOST = "127.0.0.1";

    /** The given ports, where 0 stands for a free port picked now. */
    static KafkaPorts choose(int client, int controller) {
        int[] free = Ports.freePorts(2);
        return new KafkaPorts(client == 0 ? free[0] : client, controller == 0 ? free[1] : controller);
    }

    /** Fails, naming the variable that moves the port, when another process listens on either port. */
    void requireFree() {
        Ports.requireFree(client, "Kafka", "KAFKA_PORT");
        Ports.requireFree(controller, "Kafka controller", "KAFKA_CONTROLLER_PORT");
    }

    String bootstrapServers() {
        return HOST + ":" + client;
    }

    String controllerAddress() {
        return HOST + ":" + controller;
    }
}
