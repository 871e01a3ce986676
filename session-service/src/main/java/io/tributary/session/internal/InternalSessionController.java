package io.tributary.session.internal;

import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.DisconnectApi;
import io.tributary.common.session.SessionApi;
import io.tributary.common.session.SubscribeApi;
import io.tributary.session.auth.ConnectAuthenticator;
import io.tributary.session.connect.ConnectService;
import io.tributary.session.connect.DisconnectService;
import io.tributary.session.internalauth.InternalCallers;
import io.tributary.session.internalauth.InternalRole;
import io.tributary.session.retained.RetainedLookup;
import io.tributary.session.subscription.SubscriptionService;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** The internal API transport nodes call ({@link SessionApi}): JSON in, JSON out. Theirs alone. */
@RestController
@InternalCallers(InternalRole.TRANSPORT)
public class InternalSessionController {

    private final ConnectService connects;
    private final DisconnectService disconnects;
    private final SubscriptionService subscriptions;
    private final RetainedLookup retained;
    private final ConnectAuthenticator authenticator;
    private final ConnectBatches connectBatches;
    private final SubscribeBatches subscribeBatches;
    private final UnsubscribeBatches unsubscribeBatches;

    public InternalSessionController(
            ConnectService connects,
            DisconnectService disconnects,
            SubscriptionService subscriptions,
            RetainedLookup retained,
            ConnectAuthenticator authenticator,
            ConnectBatches connectBatches,
            SubscribeBatches subscribeBatches,
            UnsubscribeBatches unsubscribeBatches) {
        this.unsubscribeBatches = unsubscribeBatches;
        this.subscribeBatches = subscribeBatches;
        this.connectBatches = connectBatches;
        this.authenticator = authenticator;
        this.connects = connects;
        this.disconnects = disconnects;
        this.subscriptions = subscriptions;
        this.retained = retained;
    }

    @PostMapping(
            path = SessionApi.CONNECT,
            consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    public ConnectApi.ConnectResponse connect(@RequestBody ConnectApi.ConnectRequest request) {
        InternalRequests.check(request);
        // Before the session transaction: a refused CONNECT changes no session (403 with the reason), and the
        // bcrypt check holds no row lock.
        return connects.connect(request, authenticator.authenticate(request));
    }

    /** Many CONNECTs of one node; each gets its outcome (accepted, refused, or unavailable), in order. */
    @PostMapping(
            path = SessionApi.CONNECT_BATCH,
            consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    public ConnectApi.ConnectBatchResponse connectBatch(@RequestBody ConnectApi.ConnectBatch batch) {
        return connectBatches.connect(batch);
    }

    /** Many ended connections of one node; 200 with an empty body (stale epochs change nothing). */
    @PostMapping(path = SessionApi.DISCONNECT_BATCH, consumes = MediaType.APPLICATION_JSON_VALUE)
    public ResponseEntity<Void> disconnectBatch(@RequestBody DisconnectApi.DisconnectBatch batch) {
        List<DisconnectApi.DisconnectRequest> requests = BatchCalls.checked(batch == null ? null : batch.requests());
        requests.forEach(InternalRequests::check);
        BatchCalls.withDeadlockRetry("disconnect", requests.size(), () -> disconnects.disconnectAll(requests));
        return ResponseEntity.ok().build();
    }

    @PostMapping(
            path = SessionApi.SUBSCRIBE,
            consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    public SubscribeApi.SubscribeResponse subscribe(@RequestBody SubscribeApi.SubscribeRequest request) {
        InternalRequests.check(request);
        // The end of the publish topic is read first: every retained PUBLISH acknowledged before this SUBSCRIBE
        // arrived is below it, and the lookup waits until the retained store has reached it.
        RetainedLookup.Mark mark = retained.mark(request);
        SubscriptionService.Subscribed subscribed = subscriptions.subscribe(request);
        return new SubscribeApi.SubscribeResponse(
                subscribed.reasonCodes(),
                retained.retainedFor(request, mark, subscribed.reasonCodes(), subscribed.created()));
    }

    /** Many SUBSCRIBEs of one node's connections; each gets its outcome (done, stale or unavailable), in order. */
    @PostMapping(
            path = SessionApi.SUBSCRIBE_BATCH,
            consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    public SubscribeApi.SubscribeBatchResponse subscribeBatch(@RequestBody SubscribeApi.SubscribeBatch batch) {
        return subscribeBatches.subscribe(batch);
    }

    /** Many UNSUBSCRIBEs of one node's connections; each gets its outcome (done, stale or unavailable), in order. */
    @PostMapping(
            path = SessionApi.UNSUBSCRIBE_BATCH,
            consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    public SubscribeApi.UnsubscribeBatchResponse unsubscribeBatch(@RequestBody SubscribeApi.UnsubscribeBatch batch) {
        return unsubscribeBatches.unsubscribe(batch);
    }

    /** 200 with an empty body, also when the epoch was stale (the connection had been taken over already). */
    @PostMapping(path = SessionApi.DISCONNECT, consumes = MediaType.APPLICATION_JSON_VALUE)
    public ResponseEntity<Void> disconnect(@RequestBody DisconnectApi.DisconnectRequest request) {
        InternalRequests.check(request);
        disconnects.disconnect(request);
        return ResponseEntity.ok().build();
    }
}
