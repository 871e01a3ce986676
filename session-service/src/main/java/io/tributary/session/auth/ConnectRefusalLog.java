package io.tributary.session.auth;

import io.tributary.common.session.ConnectApi;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a refused CONNECT leaves behind: one log line naming the client and the cause, the failure counter, and the
 * failure row that the back-off and the admin API read.
 */
final class ConnectRefusalLog {

    /** ConnectAuthenticator's logger, as before this class was split from it: log settings that name it still apply. */
    private static final Logger log = LoggerFactory.getLogger(ConnectAuthenticator.class);

    private final AuthFailureStore failures;
    private final Clock clock;
    private final AuthCounters counters;

    ConnectRefusalLog(AuthFailureStore failures, Clock clock, AuthCounters counters) {
        this.failures = failures;
        this.clock = clock;
        this.counters = counters;
    }

    void record(ConnectApi.ConnectRequest request, ConnectRefusedException e) {
        String ip = ClientAddresses.ip(request.remoteAddress());
        log.warn(
                "CONNECT refused: client '{}', user name '{}', from {}: {} ({})",
                printable(request.clientId()),
                printable(request.username()),
                ip,
                e.getMessage(),
                e.metricCause());
        counters.failure(e.metricCause()).increment();
        if (ConnectBackOff.CAUSE.equals(e.metricCause())) {
            // Its failures are recorded already; a flood of refusals costs no database write each.
            return;
        }
        try {
            failures.record(request.clientId(), ip, request.username(), e.metricCause(), clock.instant());
        } catch (RuntimeException dbFailure) {
            // The refusal stands without its bookkeeping; the log line and the counter still tell.
            log.warn(
                    "Could not record the failed CONNECT of '{}': {}",
                    printable(request.clientId()),
                    dbFailure.toString());
        }
    }

    /** Client ids and user names come from the network: no control characters into the log. */
    private static String printable(String s) {
        return s == null ? null : s.replaceAll("\\p{Cntrl}", "?");
    }
}
