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
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The internal API transport nodes call ({@link SessionApi}) one request at a time: JSON in, JSON out. Theirs alone.
 * Their batch calls, the hot path, are {@link InternalBatchEndpoints}.
 */
@RestController
@InternalCallers(InternalRole.TRANSPORT)
public class InternalSessionController {

    private final ConnectService connects;
    private final DisconnectService disconnects;
    private final SubscriptionService subscriptions;
    private final RetainedLookup retained;
    private final ConnectAuthenticator authenticator;

    public InternalSessionController(
            ConnectService connects,
            DisconnectService disconnects,
            SubscriptionService subscriptions,
            RetainedLookup retained,
            ConnectAuthenticator authenticator) {
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

    /** 200 with an empty body, also when the epoch was stale (the connection had been taken over already). */
    @PostMapping(path = SessionApi.DISCONNECT, consumes = MediaType.APPLICATION_JSON_VALUE)
    public ResponseEntity<Void> disconnect(@RequestBody DisconnectApi.DisconnectRequest request) {
        InternalRequests.check(request);
        disconnects.disconnect(request);
        return ResponseEntity.ok().build();
    }
}
