package io.tributary.session.auth;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** {@code tributary.auth.successes{method}} and {@code tributary.auth.failures{cause}} of CONNECT authentication. */
final class AuthCounters {

    private final MeterRegistry registry;
    private final ConcurrentMap<String, Counter> failures = new ConcurrentHashMap<>();
    final Counter password;
    final Counter anonymous;
    final Counter certificate;
    final Counter token;
    final Counter warmUp;

    AuthCounters(MeterRegistry registry, boolean jwt) {
        this.registry = registry;
        this.password = success("password");
        this.anonymous = success("anonymous");
        this.certificate = success("certificate");
        this.token = success("token");
        this.warmUp = success("warm_up");
        // The usual causes exist from start-up, so dashboards and alerts see zero rather than nothing.
        failure("unknown_credentials");
        failure("bad_password");
        if (jwt) {
            failure("token_expired");
            failure("token_bad_signature");
        }
        failure("banned");
    }

    private Counter success(String method) {
        return Counter.builder("tributary.auth.successes")
                .tag("method", method)
                .description("CONNECTs authenticated")
                .register(registry);
    }

    Counter failure(String cause) {
        return failures.computeIfAbsent(
                cause,
                c -> Counter.builder("tributary.auth.failures")
                        .tag("cause", c)
                        .description("CONNECTs refused by authentication or authorization")
                        .register(registry));
    }
}
