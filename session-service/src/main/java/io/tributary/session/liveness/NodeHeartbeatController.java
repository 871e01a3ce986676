package io.tributary.session.liveness;

import io.tributary.common.session.LivenessApi;
import io.tributary.common.session.SessionApi;
import io.tributary.session.internal.InternalRequests;
import io.tributary.session.internalauth.InternalCallers;
import io.tributary.session.internalauth.InternalRole;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** Heartbeats of transport nodes ({@link SessionApi#HEARTBEAT}). */
@RestController
public class NodeHeartbeatController {

    private final NodeStore nodes;

    public NodeHeartbeatController(NodeStore nodes) {
        this.nodes = nodes;
    }

    @InternalCallers(InternalRole.TRANSPORT)
    @PostMapping(
            path = SessionApi.HEARTBEAT,
            consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    public LivenessApi.HeartbeatResponse heartbeat(@RequestBody LivenessApi.HeartbeatRequest request) {
        InternalRequests.check(request);
        return new LivenessApi.HeartbeatResponse(!nodes.heartbeat(request.nodeId(), request.incarnation()));
    }
}
