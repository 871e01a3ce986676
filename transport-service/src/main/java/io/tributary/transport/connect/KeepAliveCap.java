package io.tributary.transport.connect;

/**
 * The keep alive a connection is held to, from the one its CONNECT asked for and the node's maximum
 * ({@code MQTT_MAX_KEEP_ALIVE}). A keep alive above the maximum is lowered to it; so is 0 ("no keep alive") when an
 * operator set a maximum below the protocol's 65535, since a connection that may stay silent for ever is exactly what
 * such a maximum is for (idle timeouts of load balancers in front of the node). MQTT 5 clients are told with CONNACK
 * Server Keep Alive (3.2.2.3.14) and must use it; MQTT 3.x has no such property, so a 3.x client is simply held to
 * the lowered value: closed after 1.5 times it without a packet (MQTT 3.1.1 section 3.1.2.10), which its own keep
 * alive, if shorter, never reaches.
 */
public final class KeepAliveCap {

    /** The largest keep alive the protocol can express; as a maximum it means "no cap". */
    public static final int PROTOCOL_MAXIMUM = 65535;

    private KeepAliveCap() {}

    /** The keep alive in seconds to enforce; differs from {@code requested} when it was lowered. */
    public static int effective(int requested, int maximum) {
        boolean lower = requested > maximum || (requested == 0 && maximum < PROTOCOL_MAXIMUM);
        return lower ? maximum : requested;
    }
}
