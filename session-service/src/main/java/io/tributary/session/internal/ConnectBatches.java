package io.tributary.session.internal;

import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.stereotype.Component;

import io.tributary.common.session.SessionApi;
import io.tributary.session.auth.Authentication;
import io.tributary.session.auth.ConnectAuthenticator;
import io.tributary.session.auth.ConnectRefusedException;
import io.tributary.session.connect.ConnectService;
import io.tributary.session.web.ApiException;

/**
 * A transport node's batch of CONNECTs: shape checks and authentication per request (a bad or refused one does not
 * hold up the others), then one session transaction for all that passed. PostgreSQL may pick this transaction as a
 * deadlock victim against a single-client change that locks rows in another order; it is then run again.
 */
@Component
public class ConnectBatches {

    private static final Logger log = LoggerFactory.getLogger(ConnectBatches.class);
    private static final int ATTEMPTS = 3;
    /** More than a transport node sends in one call (its batches are bounded far below). */
    public static final int MAX_BATCH = 10_000;

    private final ConnectAuthenticator authenticator;
    private final ConnectService connects;

    public ConnectBatches(ConnectAuthenticator authenticator, ConnectService connects) {
        this.authenticator = authenticator;
        this.connects = connects;
    }

    public SessionApi.ConnectBatchResponse connect(SessionApi.ConnectBatch batch) {
        if (batch == null || batch.requests() == null) {
            throw ApiException.badRequest("requests are required");
        }
        List<SessionApi.ConnectRequest> requests = batch.requests();
        if (requests.size() > MAX_BATCH) {
            throw ApiException.badRequest("at most " + MAX_BATCH + " requests per batch: " + requests.size());
        }
        SessionApi.ConnectOutcome[] outcomes = new SessionApi.ConnectOutcome[requests.size()];
        List<Integer> valid = new ArrayList<>();
        for (int i = 0; i < requests.size(); i++) {
            try {
                InternalRequests.check(requests.get(i));
                valid.add(i);
            } catch (ApiException e) {
                log.warn("CONNECT request {} of a batch is malformed: {}", requests.get(i), e.getMessage());
                outcomes[i] = SessionApi.ConnectOutcome.unavailable("malformed request: " + e.getMessage());
            }
        }
        List<Object> authentications = authenticator.authenticateAll(valid.stream().map(requests::get).toList());
        List<Integer> admittedAt = new ArrayList<>();
        List<ConnectService.Admitted> admitted = new ArrayList<>();
        for (int k = 0; k < valid.size(); k++) {
            int i = valid.get(k);
            if (authentications.get(k) instanceof ConnectRefusedException refused) {
                outcomes[i] = SessionApi.ConnectOutcome.refused(refused.refusal());
            } else {
                admittedAt.add(i);
                admitted.add(new ConnectService.Admitted(requests.get(i), (Authentication) authentications.get(k)));
            }
        }
        if (!admitted.isEmpty()) {
            List<SessionApi.ConnectOutcome> done = connectWithRetry(admitted);
            for (int k = 0; k < admittedAt.size(); k++) {
                outcomes[admittedAt.get(k)] = done.get(k);
            }
        }
        return new SessionApi.ConnectBatchResponse(List.of(outcomes));
    }

    private List<SessionApi.ConnectOutcome> connectWithRetry(List<ConnectService.Admitted> admitted) {
        for (int attempt = 1;; attempt++) {
            try {
                return connects.connectAll(admitted);
            } catch (PessimisticLockingFailureException e) {
                if (attempt == ATTEMPTS) {
                    throw e;
                }
                log.info("CONNECT batch of {} lost a lock conflict (attempt {}): {}", admitted.size(), attempt,
                        e.getMostSpecificCause().getMessage());
            }
        }
    }
}
