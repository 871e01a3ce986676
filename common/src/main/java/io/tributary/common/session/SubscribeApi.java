package io.tributary.common.session;

import java.util.List;

/**
 * The bodies of the SUBSCRIBE and UNSUBSCRIBE calls of {@link SessionApi} (one request and the batches the nodes
 * send), and the retained messages a SUBSCRIBE answers with. Paths are in {@link SessionApi}, the other calls' bodies
 * in {@link ConnectApi}, {@link DisconnectApi}, {@link LivenessApi} and {@link LimitsApi}.
 */
public final class SubscribeApi {

    private SubscribeApi() {}

    /** SUBSCRIBEs of one node's connections, applied in one transaction (each as {@link SessionApi#SUBSCRIBE} would). */
    public record SubscribeBatch(List<SubscribeRequest> requests) {}

    /** One outcome per request of a {@link SubscribeBatch}, in the same order. */
    public record SubscribeBatchResponse(List<SubscribeOutcome> outcomes) {}

    /**
     * What became of one SUBSCRIBE of a batch: exactly one of the three is set.
     *
     * @param done        the answer {@link SessionApi#SUBSCRIBE} gives
     * @param stale       the caller's epoch is not the client's current one ({@link SessionApi#SUBSCRIBE} answers 409)
     * @param unavailable why this one could not be done now
     */
    public record SubscribeOutcome(SubscribeResponse done, String stale, String unavailable) {}

    /**
     * @param retainHandling MQTT 5 Retain Handling: 0 = send retained messages at subscribe, 1 = only if the
     *                       subscription did not exist yet, 2 = never
     * @param subscriptionId MQTT 5 Subscription Identifier, or {@code null} for none; stored with the subscription
     *                       so that a resumed session gets it back
     */
    public record Subscription(
            String filter,
            int qos,
            boolean noLocal,
            boolean retainAsPublished,
            int retainHandling,
            Integer subscriptionId) {

        public Subscription(String filter, int qos, boolean noLocal, boolean retainAsPublished, int retainHandling) {
            this(filter, qos, noLocal, retainAsPublished, retainHandling, null);
        }
    }

    public record SubscribeRequest(String clientId, long epoch, String nodeId, List<Subscription> subscriptions) {}

    /**
     * @param reasonCodes one per requested subscription: granted QoS (0..2) or an MQTT failure reason code
     * @param retained    one list per requested subscription, in the same order: the retained messages the client
     *                    must now be sent for it (empty when refused, when Retain Handling says not to send, or when
     *                    none matches); {@code null} from a server that predates retained messages
     */
    public record SubscribeResponse(List<Integer> reasonCodes, List<List<RetainedMessage>> retained) {

        public SubscribeResponse(List<Integer> reasonCodes) {
            this(reasonCodes, null);
        }
    }

    /**
     * A stored retained message, as the publish record carried it.
     *
     * @param qos     QoS it was published with (the subscriber gets at most the granted QoS)
     * @param headers the publish record's headers ({@code io.tributary.common.kafka.RecordHeaders} names and
     *                encodings, in order): MQTT 5 properties, receive time for the remaining message expiry
     */
    public record RetainedMessage(String topic, byte[] payload, int qos, List<Header> headers) {}

    /** One record header: name and raw value. */
    public record Header(String name, byte[] value) {}

    public record UnsubscribeRequest(String clientId, long epoch, List<String> filters) {}

    /** @param reasonCodes one per filter: 0x00 success, 0x11 no subscription existed */
    public record UnsubscribeResponse(List<Integer> reasonCodes) {}

    /**
     * UNSUBSCRIBEs of one node's connections, applied in one transaction, each as if it had come alone and in the
     * batch's order (a filter removed by an earlier request of the batch no longer exists for a later one).
     */
    public record UnsubscribeBatch(List<UnsubscribeRequest> requests) {}

    /** One outcome per request of an {@link UnsubscribeBatch}, in the same order. */
    public record UnsubscribeBatchResponse(List<UnsubscribeOutcome> outcomes) {}

    /**
     * What became of one UNSUBSCRIBE of a batch: exactly one of the three is set.
     *
     * @param done        the reason code of each filter
     * @param stale       the caller's epoch is not the client's current one, or the session is offline or gone (the
     *                    connection was taken over): nothing was removed
     * @param unavailable why this one could not be done now (a malformed request)
     */
    public record UnsubscribeOutcome(UnsubscribeResponse done, String stale, String unavailable) {}
}
