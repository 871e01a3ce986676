package io.tributary.transport.limits;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bookkeeping of every refusal by a limit or the block list: counted in {@code tributary_limit_refusals_total{reason}}
 * and logged as one line naming the client and the cause. The log is rate-limited per reason (a burst of
 * {@value #LOG_BURST} lines, then {@value #LOG_LINES_PER_SECOND} per second), so a flood of refusals cannot flood the
 * log: the next line that is written says how many were left out.
 */
public final class LimitRefusals {

    private static final Logger log = LoggerFactory.getLogger(LimitRefusals.class);
    private static final int LOG_BURST = 20;
    private static final int LOG_LINES_PER_SECOND = 5;

    /** Reasons shown from start-up; all reasons of this class are known, so all are registered at once. */
    public static final String BLOCKED_IP = "blocked_ip";

    public static final String CONNECTIONS = "connections";
    public static final String CONNECTION_RATE = "connection_rate";
    public static final String CONNECTION_RATE_IP = "connection_rate_ip";
    public static final String PUBLISH_RATE = "publish_rate";
    public static final String PAYLOAD_SIZE = "payload_size";
    public static final String SUBSCRIPTIONS = "subscriptions";
    public static final String TOPIC_LEVELS = "topic_levels";
    /** A CONNECT whose client identifier, or user name, is longer than the node takes ({@link IdentityLengths}). */
    public static final String CLIENT_ID_LENGTH = "client_id_length";

    public static final String USERNAME_LENGTH = "username_length";
    /** A connection without a valid PROXY protocol header, or from an untrusted peer (listener/proxy). */
    public static final String PROXY_PROTOCOL = "proxy_protocol";
    /** A WebSocket upgrade from a web page whose Origin is not allowed (listener/websocket). */
    public static final String WEBSOCKET_ORIGIN = "websocket_origin";

    private static final String[] REASONS = {
        BLOCKED_IP,
        CONNECTIONS,
        CONNECTION_RATE,
        CONNECTION_RATE_IP,
        PUBLISH_RATE,
        PAYLOAD_SIZE,
        SUBSCRIPTIONS,
        TOPIC_LEVELS,
        CLIENT_ID_LENGTH,
        USERNAME_LENGTH,
        PROXY_PROTOCOL,
        WEBSOCKET_ORIGIN
    };

    private record Throttle(RateLimiter lines, AtomicLong suppressed) {}

    private final ConcurrentMap<String, Counter> counters = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Throttle> throttles = new ConcurrentHashMap<>();
    private final MeterRegistry registry;
    private final LongSupplier nanoTime;

    public LimitRefusals(MeterRegistry registry, LongSupplier nanoTime) {
        this.registry = registry;
        this.nanoTime = nanoTime;
        for (String reason : REASONS) {
            counter(reason);
        }
    }

    private Counter counter(String reason) {
        return counters.computeIfAbsent(
                reason,
                r -> Counter.builder("tributary.limit.refusals")
                        .tag("reason", r)
                        .description("connections, publishes and subscriptions refused by a limit or the block list")
                        .register(registry));
    }

    /**
     * Counts one refusal and logs it unless the log of this reason is over its rate.
     *
     * @param what a sentence start naming the client, such as {@code Refusing CONNECT of client 'x' from /1.2.3.4:5}
     */
    public void refused(String reason, String what, String cause) {
        counter(reason).increment();
        Throttle throttle = throttles.computeIfAbsent(
                reason,
                r -> new Throttle(
                        new RateLimiter(LOG_LINES_PER_SECOND, LOG_BURST, nanoTime.getAsLong()), new AtomicLong()));
        if (!throttle.lines().tryAcquire(nanoTime.getAsLong())) {
            throttle.suppressed().incrementAndGet();
            return;
        }
        long suppressed = throttle.suppressed().getAndSet(0);
        if (suppressed > 0) {
            log.warn(
                    "{}: {} ({} more {} refusals not logged; see tributary_limit_refusals_total)",
                    what,
                    cause,
                    suppressed,
                    reason);
        } else {
            log.warn("{}: {}", what, cause);
        }
    }

    /** Refusals counted so far for {@code reason} (tests, $SYS). */
    public long count(String reason) {
        return (long) counter(reason).count();
    }
}
