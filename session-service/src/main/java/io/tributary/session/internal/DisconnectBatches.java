package io.tributary.session.internal;

import io.tributary.common.session.DisconnectApi;
import io.tributary.session.connect.DisconnectService;
import java.util.List;
import org.springframework.stereotype.Component;

/** A transport node's batch of ended connections: shape checks, then one transaction (stale epochs change nothing). */
@Component
public class DisconnectBatches {

    private final DisconnectService disconnects;

    public DisconnectBatches(DisconnectService disconnects) {
        this.disconnects = disconnects;
    }

    public void disconnect(DisconnectApi.DisconnectBatch batch) {
        List<DisconnectApi.DisconnectRequest> requests = BatchCalls.checked(batch == null ? null : batch.requests());
        requests.forEach(InternalRequests::check);
        BatchCalls.withDeadlockRetry("disconnect", requests.size(), () -> disconnects.disconnectAll(requests));
    }
}
