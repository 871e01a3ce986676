package io.tributary.session.presence;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;
import io.tributary.session.redis.RedisAccess;

/**
 * Hot presence in Redis: hash {@code tributary:presence:<clientId>} = {node, epoch, connectedAt}. PostgreSQL stays
 * the truth; presence is a fast, advisory view, so Redis being down degrades it without failing requests: writes
 * log and go on. The connection is opened on first use and re-established by Lettuce; while it is down commands
 * fail at once instead of queueing.
 */
@Component
public class PresenceStore {

    private static final Logger log = LoggerFactory.getLogger(PresenceStore.class);

    static final String KEY_PREFIX = "tributary:presence:";

    /** Deletes the hash only if it still describes the given epoch (a newer connection may own it already). */
    private static final String DELETE_IF_EPOCH = """
            if redis.call('HGET', KEYS[1], 'epoch') == ARGV[1] then
              return redis.call('DEL', KEYS[1])
            end
            return 0""";

    private final RedisAccess redis;

    public PresenceStore(RedisAccess redis) {
        this.redis = redis;
    }

    public static String key(String clientId) {
        return KEY_PREFIX + clientId;
    }

    /**
     * Records that the clients are now connected (node, epoch, connected-at), pipelined. Never throws: a Redis
     * failure is logged and the presence stays stale until the next change.
     */
    public void setAll(Map<String, Presence> presences) {
        if (presences.isEmpty()) {
            return;
        }
        try {
            var async = redis.async();
            List<RedisFuture<?>> sent = new ArrayList<>(presences.size());
            presences.forEach((clientId, p) -> sent.add(async.hset(key(clientId), Map.of("node", p.nodeId(),
                    "epoch", Long.toString(p.epoch()), "connectedAt", p.connectedAt().toString()))));
            redis.awaitAll(sent);
        } catch (RuntimeException e) {
            log.warn("Cannot record presence of {} clients in Redis: {}", presences.size(), e.toString());
        }
    }

    /**
     * Removes the client's presence if it is still the one of {@code epoch}. Never throws (see {@link #setAll}).
     *
     * @return true when removed
     */
    public boolean removeIfEpoch(String clientId, long epoch) {
        try {
            Long removed = commands().eval(DELETE_IF_EPOCH, ScriptOutputType.INTEGER, new String[] {key(clientId)},
                    Long.toString(epoch));
            return removed != null && removed > 0;
        } catch (RuntimeException e) {
            log.warn("Cannot remove presence of {} from Redis: {}", clientId, e.toString());
            return false;
        }
    }

    /** {@link #removeIfEpoch} for many clients (client id to epoch), pipelined. Never throws. */
    public void removeAllIfEpoch(Map<String, Long> epochs) {
        if (epochs.isEmpty()) {
            return;
        }
        try {
            var async = redis.async();
            List<RedisFuture<?>> sent = new ArrayList<>(epochs.size());
            epochs.forEach((clientId, epoch) -> sent.add(async.eval(DELETE_IF_EPOCH, ScriptOutputType.INTEGER,
                    new String[] {key(clientId)}, Long.toString(epoch))));
            redis.awaitAll(sent);
        } catch (RuntimeException e) {
            log.warn("Cannot remove presence of {} clients from Redis: {}", epochs.size(), e.toString());
        }
    }

    public Optional<Presence> get(String clientId) {
        Map<String, String> hash = commands().hgetall(key(clientId));
        if (hash == null || hash.isEmpty() || hash.get("node") == null || hash.get("epoch") == null) {
            return Optional.empty();
        }
        String connectedAt = hash.get("connectedAt");
        return Optional.of(new Presence(hash.get("node"), Long.parseLong(hash.get("epoch")),
                connectedAt == null ? null : Instant.parse(connectedAt)));
    }

    public String ping() {
        return commands().ping();
    }

    private RedisCommands<String, String> commands() {
        return redis.commands();
    }
}
