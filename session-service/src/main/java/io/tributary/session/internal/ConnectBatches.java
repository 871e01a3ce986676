package io.tributary.session.internal;

import io.tributary.common.session.ConnectApi;
import io.tributary.session.auth.AuthOutcome;
import io.tributary.session.auth.ConnectAuthenticator;
import io.tributary.session.connect.ConnectService;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * A transport node's batch of CONNECTs: shape checks and authentication per request (a bad or refused one does not
 * hold up the others), then one session transaction for all that passed.
 */
@Component
public class ConnectBatches {

    private final ConnectAuthenticator authenticator;
    private final ConnectService connects;

    public ConnectBatches(ConnectAuthenticator authenticator, ConnectService connects) {
        this.authenticator = authenticator;
        this.connects = connects;
    }

    public ConnectApi.ConnectBatchResponse connect(ConnectApi.ConnectBatch batch) {
        List<ConnectApi.ConnectRequest> requests = BatchCalls.checked(batch == null ? null : batch.requests());
        ConnectApi.ConnectOutcome[] outcomes = new ConnectApi.ConnectOutcome[requests.size()];
        List<Integer> valid = BatchCalls.wellFormed(
                "CONNECT",
                requests,
                InternalRequests::check,
                (i, why) -> outcomes[i] = ConnectApi.ConnectOutcome.unavailable(why));
        List<AuthOutcome> authentications =
                authenticator.authenticateAll(valid.stream().map(requests::get).toList());
        List<Integer> admittedAt = new ArrayList<>();
        List<ConnectService.Admitted> admitted = new ArrayList<>();
        for (int k = 0; k < valid.size(); k++) {
            int i = valid.get(k);
            if (authentications.get(k) instanceof AuthOutcome.Refused refused) {
                outcomes[i] =
                        ConnectApi.ConnectOutcome.refused(refused.refusal().refusal());
            } else {
                admittedAt.add(i);
                admitted.add(new ConnectService.Admitted(
                        requests.get(i), ((AuthOutcome.Admitted) authentications.get(k)).authentication()));
            }
        }
        if (!admitted.isEmpty()) {
            List<ConnectApi.ConnectOutcome> done =
                    BatchCalls.withDeadlockRetry("CONNECT", admitted.size(), () -> connects.connectAll(admitted));
            for (int k = 0; k < admittedAt.size(); k++) {
                outcomes[admittedAt.get(k)] = done.get(k);
            }
        }
        return new ConnectApi.ConnectBatchResponse(List.of(outcomes));
    }
}
