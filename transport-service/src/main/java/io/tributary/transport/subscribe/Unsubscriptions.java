package io.tributary.transport.subscribe;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.mqtt.MqttReasonCodes.Disconnect;
import io.netty.handler.codec.mqtt.MqttReasonCodes.UnsubAck;
import io.netty.handler.codec.mqtt.MqttUnsubscribeMessage;
import io.tributary.common.session.SubscribeApi;
import io.tributary.common.tenant.TenantNamespace;
import io.tributary.common.topic.SharedFilters;
import io.tributary.common.topic.TopicFilters;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.index.LocalSubscriptions;
import io.tributary.transport.replay.Replays;
import io.tributary.transport.sessionclient.SessionServiceClient;
import java.util.ArrayList;
import java.util.List;

/**
 * UNSUBSCRIBE: session-service records the removal (pipelined ones go together, {@link PipelinedCalls}); on its
 * answer, on the event loop, the removed filters leave the local index and UNSUBACK goes out. Packets pipelined
 * behind it wait in {@link SubscriptionBarrier} until then.
 */
final class Unsubscriptions {

    /** MQTT 5 UNSUBACK refusal when session-service could not record the unsubscription. */
    private static final short UNSUBACK_UNSPECIFIED_ERROR =
            (short) Byte.toUnsignedInt(UnsubAck.UNSPECIFIED_ERROR.byteValue());

    private final PipelinedCalls<SubscribeApi.UnsubscribeRequest, SubscribeApi.UnsubscribeResponse> calls;
    private final LocalSubscriptions subscriptions;
    private final Disconnector disconnector;

    Unsubscriptions(SessionServiceClient sessions, LocalSubscriptions subscriptions, Disconnector disconnector) {
        this.calls = new PipelinedCalls<>(sessions::unsubscribeAll);
        this.subscriptions = subscriptions;
        this.disconnector = disconnector;
    }

    void onUnsubscribe(ChannelHandlerContext ctx, ClientConnection connection, MqttUnsubscribeMessage message) {
        int packetId = message.variableHeader().messageId();
        List<String> clientFilters = message.payload().topics();
        if (clientFilters.isEmpty()) {
            // MQTT 3.1.1 section 3.10.3 / 5.0 section 3.10.3: at least one filter.
            disconnector.disconnect(
                    ctx.channel(), Disconnect.PROTOCOL_ERROR, "protocol_error", "UNSUBSCRIBE without topic filters");
            return;
        }
        // The names the subscriptions are stored under. A reserved one ($tenant/...) was never granted: a tenant's
        // client's maps into its own namespace, a global client's is simply not found.
        TenantNamespace namespace = connection.namespace();
        List<String> filters = clientFilters.stream()
                .map(f -> isValid(f) ? namespace.filter(f) : f)
                .toList();
        SubscribeApi.UnsubscribeRequest request =
                new SubscribeApi.UnsubscribeRequest(connection.clientId(), connection.epoch(), filters);
        calls.submit(ctx, connection, request)
                .whenComplete((response, failure) -> ctx.executor()
                        .execute(() ->
                                unsubscribed(ctx, connection, packetId, clientFilters, filters, response, failure)));
    }

    /** The session-service answer, on the event loop: the local index follows it, then UNSUBACK. */
    private void unsubscribed(
            ChannelHandlerContext ctx,
            ClientConnection connection,
            int packetId,
            List<String> clientFilters,
            List<String> filters,
            SubscribeApi.UnsubscribeResponse response,
            Throwable failure) {
        if (SubscribeAcks.takenOver(failure)) {
            connection.markTakenOver();
            disconnector.disconnect(ctx.channel(), Disconnect.SESSION_TAKEN_OVER, null, "session taken over");
            return;
        }
        short[] codes = new short[filters.size()];
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < filters.size(); i++) {
            boolean ok = failure == null
                    && response.reasonCodes().size() > i
                    && response.reasonCodes().get(i) < 0x80;
            codes[i] = failure != null
                    ? UNSUBACK_UNSPECIFIED_ERROR
                    : response.reasonCodes().size() > i
                            ? response.reasonCodes().get(i).shortValue()
                            : UNSUBACK_UNSPECIFIED_ERROR;
            if (ok) {
                subscriptions.remove(connection, filters.get(i));
                Replays.forget(connection, filters.get(i));
            } else if (codes[i] >= 0x80) {
                problems.add("'" + clientFilters.get(i) + "': "
                        + (failure != null ? "the unsubscription could not be recorded" : "refused"));
            }
        }
        if (failure != null && !connection.isMqtt5()) {
            // MQTT 3.1.1 UNSUBACK cannot report a failure; acknowledging would lie.
            disconnector.disconnect(
                    ctx.channel(),
                    Disconnect.UNSPECIFIED_ERROR,
                    null,
                    "UNSUBSCRIBE could not be recorded: "
                            + SubscribeAcks.unwrap(failure).getMessage());
            return;
        }
        ctx.writeAndFlush(SubscribeAcks.unsubAck(connection, packetId, codes, problems));
        SubscriptionBarrier.settled(ctx.channel());
    }

    /** Only a well-formed filter is mapped into the namespace; a malformed one goes as sent and is not found. */
    private static boolean isValid(String filter) {
        return filter != null
                && (SharedFilters.isShared(filter)
                        ? SharedFilters.problem(filter) == null
                        : TopicFilters.topicFilterProblem(filter) == null);
    }
}
