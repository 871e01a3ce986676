package io.tributary.session.presence;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;
import io.tributary.session.redis.RedisAccess;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

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

    /** Writes the hash unless it holds the same or a newer epoch of the client. */
    private static final String SET_IF_NEWER = """
            local current = redis.call('HGET', KEYS[1], 'epoch')
            if current and tonumber(current) >= tonumber(ARGV[2]) then
              return 0
            end
            redis.call('HSET', KEYS[1], 'node', ARGV[1], 'epoch', ARGV[2], 'connectedAt', ARGV[3])
            return 1""";

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
     * Records that the clients are now connected (node, epoch, connected-at), unless the hash already holds a newer
     * epoch of the client: writes from different session-service instances can then land in any order. Sent
     * pipelined, without waiting for Redis: the caller awaits the answers with {@link Sent#await()} when it is done
     * with the work it overlaps them with. Never throws: a Redis failure is logged and the presence stays stale until
     * the next change.
     */
    public Sent sendAll(Map<String, Presence> presences) {
        if (presences.isEmpty()) {
            return Sent.NOTHING;
        }
        try {
            var async = redis.async();
            List<RedisFuture<?>> sent = new ArrayList<>(presences.size());
            presences.forEach((clientId, p) -> sent.add(async.eval(
                    SET_IF_NEWER,
                    ScriptOutputType.INTEGER,
                    new String[] {key(clientId)},
                    p.nodeId(),
                    Long.toString(p.epoch()),
                    p.connectedAt().toString())));
            return () -> await(sent, presences.size());
        } catch (RuntimeException e) {
            log.warn("Cannot record presence of {} clients in Redis: {}", presences.size(), e.toString());
            return Sent.NOTHING;
        }
    }

    /** Presence writes under way (see {@link #sendAll}). */
    @FunctionalInterface
    public interface Sent {
        Sent NOTHING = () -> {};

        /** Waits for Redis to answer; never throws (a failure is logged). */
        void await();
    }

    private void await(List<RedisFuture<?>> sent, int clients) {
        try {
            redis.awaitAll(sent);
        } catch (RuntimeException e) {
            log.warn("Cannot record presence of {} clients in Redis: {}", clients, e.toString());
        }
    }

    /**
     * Removes the client's presence if it is still the one of {@code epoch}. Never throws (see {@link #sendAll}).
     *
     * @return true when removed
     */
    public boolean removeIfEpoch(String clientId, long epoch) {
        try {
            Long removed = commands()
                    .eval(
                            DELETE_IF_EPOCH,
                            ScriptOutputType.INTEGER,
                            new String[] {key(clientId)},
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
            epochs.forEach((clientId, epoch) -> sent.add(async.eval(
                    DELETE_IF_EPOCH, ScriptOutputType.INTEGER, new String[] {key(clientId)}, Long.toString(epoch))));
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
        return Optional.of(new Presence(
                hash.get("node"),
                Long.parseLong(hash.get("epoch")),
                connectedAt == null ? null : Instant.parse(connectedAt)));
    }

    public String ping() {
        return commands().ping();
    }

    private RedisCommands<String, String> commands() {
        return redis.commands();
    }
}
