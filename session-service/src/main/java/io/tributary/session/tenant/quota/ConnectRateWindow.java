package io.tributary.session.tenant.quota;

import io.lettuce.core.ScriptOutputType;
import io.tributary.session.redis.RedisAccess;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Tenants' CONNECT rates, counted cluster-wide in Redis in fixed one-second windows: key
 * {@code tributary:{connect-rate}:<tenant>:<epoch second>} holds how many CONNECTs the window admitted, and expires
 * with it. A CONNECT batch takes what it needs for all its tenants in one script call (one round trip), each tenant
 * getting at most what its window has left. The window is the second of the admitting session-service instance's
 * clock, so instances whose clocks differ can admit a little more around a second's boundary: the rate is
 * approximate, where the counted quotas are exact. While Redis cannot be reached the rate is not enforced (a warning
 * is logged): a Redis outage must not refuse every tenant's clients.
 */
@Component
public class ConnectRateWindow {

    private static final Logger log = LoggerFactory.getLogger(ConnectRateWindow.class);

    /** Per key (KEYS[i]): ARGV[2i-1] CONNECTs wanted, ARGV[2i] the rate; answers what each may have. */
    private static final String TAKE = """
            local granted = {}
            for i, key in ipairs(KEYS) do
              local wanted = tonumber(ARGV[2 * i - 1])
              local rate = tonumber(ARGV[2 * i])
              local used = tonumber(redis.call('GET', key) or '0')
              local take = math.min(wanted, math.max(0, rate - used))
              if take > 0 then
                redis.call('INCRBY', key, take)
                redis.call('EXPIRE', key, 2)
              end
              granted[i] = take
            end
            return granted""";

    /** One hash tag for all: the script's keys are in one slot should Redis ever be a cluster. */
    static final String KEY_PREFIX = "tributary:{connect-rate}:";

    private static final long WARN_EVERY_MS = 60_000;

    private final RedisAccess redis;
    private final Clock clock;
    private volatile long lastWarning;

    public ConnectRateWindow(RedisAccess redis, Clock clock) {
        this.redis = redis;
        this.clock = clock;
    }

    /**
     * Takes CONNECTs from the tenants' current windows.
     *
     * @param wanted per tenant, how many CONNECTs of the batch it has
     * @param rates  per tenant of {@code wanted}, its rate (CONNECTs per second)
     * @return per tenant, how many of its CONNECTs the window admits (the first ones, in arrival order); all of them
     *         while Redis cannot be reached
     */
    public Map<String, Long> take(Map<String, Integer> wanted, Map<String, Integer> rates) {
        if (wanted.isEmpty()) {
            return Map.of();
        }
        long second = clock.millis() / 1000;
        List<String> tenants = new ArrayList<>(wanted.keySet());
        String[] keys = new String[tenants.size()];
        String[] args = new String[tenants.size() * 2];
        for (int i = 0; i < tenants.size(); i++) {
            keys[i] = KEY_PREFIX + tenants.get(i) + ":" + second;
            args[2 * i] = Integer.toString(wanted.get(tenants.get(i)));
            args[2 * i + 1] = Integer.toString(rates.get(tenants.get(i)));
        }
        Map<String, Long> granted = new HashMap<>();
        try {
            List<Long> answer = redis.commands().eval(TAKE, ScriptOutputType.MULTI, keys, args);
            for (int i = 0; i < tenants.size(); i++) {
                granted.put(tenants.get(i), answer.get(i));
            }
        } catch (RuntimeException e) {
            long now = System.currentTimeMillis();
            if (now - lastWarning > WARN_EVERY_MS) {
                lastWarning = now;
                log.warn("Tenants' CONNECT rates not enforced: Redis cannot be reached ({})", e.toString());
            }
            wanted.forEach((tenant, n) -> granted.put(tenant, (long) n));
        }
        return granted;
    }
}
