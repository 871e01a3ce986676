package io.tributary.transport.connection;

/**
 * Names of the pipeline handlers, in pipeline order; the whole pipeline is assembled in
 * {@code listener/MqttChannelInitializer}.
 */
public final class HandlerNames {

    public static final String BYTE_COUNTER = "byteCounter";
    public static final String FLUSH_CONSOLIDATION = "flushConsolidation";
    public static final String FRAME_CHECK = "packetFrameCheck";
    public static final String DECODER = "mqttDecoder";
    public static final String DECODED_COUNTER = "decodedCounter";
    public static final String CLIENT_LOG_CONTEXT = "clientLogContext";
    public static final String ENCODER = "mqttEncoder";
    /** Limits and the IP block list, answered at CONNECT; leaves with the first packet. */
    public static final String ADMISSION = "admission";

    public static final String CONNECT = "connect";
    /** Added by CONNECT in its own place, when the client's authentication expires (JWT). */
    public static final String AUTHENTICATION_EXPIRY = "authenticationExpiry";

    public static final String MALFORMED = "malformed";
    /** Holds packets behind a SUBSCRIBE / UNSUBSCRIBE until it has taken effect. */
    public static final String SUBSCRIPTION_BARRIER = "subscriptionBarrier";
    /** PUBLISH/PUBREL, SUBSCRIBE/UNSUBSCRIBE, outbound acks, PINGREQ, DISCONNECT/AUTH: one handler each, one entry. */
    public static final String PACKETS = "packets";
    /** The connection's end and whatever nobody consumed (lifecycle and terminal handlers, one entry). */
    public static final String END = "end";

    private HandlerNames() {}
}
