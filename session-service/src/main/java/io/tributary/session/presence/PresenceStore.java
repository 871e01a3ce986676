package io.tributary.session.presence;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.tributary.session.redis.RedisAccess;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Hot presence in Redis: hash {@code tributary:presence:<clientId>} = {node, epoch, connectedAt}. PostgreSQL stays
 * the truth; presence is a fast, advisory view, so Redis being down degrades it without failing requests: writes
 * log and go on. The connection is opened on first use and re-established by Lettuce; while it is down commands
 * fail at once instead of queueing.
 *
 * <p>No request waits for Redis: writes are sent and their answers only checked for failures (issue 33: awaiting
 * them cost a quiet CONNECT several milliseconds, and a storm's request threads waited ~130 ms each on the Lettuce
 * event loop of a saturated machine, docs/benchmarks-history.md). Arrival order therefore does not matter, also across
 * session-service instances: a connection's write is ignored once the hash holds its epoch or a newer one, and the
 * end of a connection leaves a short-lived tombstone holding its epoch (no node), so a write of that connection
 * that arrives after its end is ignored too instead of making an offline client look connected.
 */
@Component
public class PresenceStore {

    private static final Logger log = LoggerFactory.getLogger(PresenceStore.class);

    static final String KEY_PREFIX = "tributary:presence:";

    /**
     * How long an ended connection's tombstone stays: far longer than a write of it can be in flight (it was sent
     * before the connection's CONNACK, and Lettuce gives up on a command after {@code REDIS_COMMAND_TIMEOUT}).
     */
    static final long TOMBSTONE_SECONDS = 600;

    /** Writes the hash unless it holds the same or a newer epoch of the client (connected or ended). */
    private static final String SET_IF_NEWER = """
            local current = redis.call('HGET', KEYS[1], 'epoch')
            if current and tonumber(current) >= tonumber(ARGV[2]) then
              return 0
            end
            redis.call('DEL', KEYS[1])
            redis.call('HSET', KEYS[1], 'node', ARGV[1], 'epoch', ARGV[2], 'connectedAt', ARGV[3])
            return 1""";

    /**
     * Ends the given epoch's presence unless the hash holds a newer connection: replaces it with a tombstone of that
     * epoch that expires (ARGV[2] seconds).
     */
    private static final String END_UNLESS_NEWER = """
            local current = redis.call('HGET', KEYS[1], 'epoch')
            if current and tonumber(current) > tonumber(ARGV[1]) then
              return 0
            end
            redis.call('DEL', KEYS[1])
            redis.call('HSET', KEYS[1], 'epoch', ARGV[1])
            redis.call('EXPIRE', KEYS[1], ARGV[2])
            return 1""";

    private final RedisAccess redis;

    public PresenceStore(RedisAccess redis) {
        this.redis = redis;
    }

    public static String key(String clientId) {
        return KEY_PREFIX + clientId;
    }

    /**
     * Records that the clients are now connected (node, epoch, connected-at), unless the hash already holds the same
     * or a newer epoch of the client. Sent pipelined, not awaited. Never throws: a Redis failure is logged and the
     * presence stays stale until the next change.
     */
    public void recordAll(Map<String, Presence> presences) {
        if (presences.isEmpty()) {
            return;
        }
        send("record presence of", presences.size(), async -> {
            List<RedisFuture<?>> sent = new ArrayList<>(presences.size());
            presences.forEach((clientId, p) -> sent.add(async.eval(
                    SET_IF_NEWER,
                    ScriptOutputType.INTEGER,
                    new String[] {key(clientId)},
                    p.nodeId(),
                    Long.toString(p.epoch()),
                    p.connectedAt().toString())));
            return sent;
        });
    }

    /** Ends the client's presence of {@code epoch} unless a newer connection holds it; not awaited, never throws. */
    public void removeIfEpoch(String clientId, long epoch) {
        removeAllIfEpoch(Map.of(clientId, epoch));
    }

    /** {@link #removeIfEpoch} for many clients (client id to epoch), pipelined. */
    public void removeAllIfEpoch(Map<String, Long> epochs) {
        if (epochs.isEmpty()) {
            return;
        }
        send("remove presence of", epochs.size(), async -> {
            List<RedisFuture<?>> sent = new ArrayList<>(epochs.size());
            String ttl = Long.toString(TOMBSTONE_SECONDS);
            epochs.forEach((clientId, epoch) -> sent.add(async.eval(
                    END_UNLESS_NEWER,
                    ScriptOutputType.INTEGER,
                    new String[] {key(clientId)},
                    Long.toString(epoch),
                    ttl)));
            return sent;
        });
    }

    /** Sends the commands and logs (once for all of them) if Redis refused or could not be reached. */
    private void send(
            String what, int clients, Function<RedisAsyncCommands<String, String>, List<RedisFuture<?>>> commands) {
        try {
            List<RedisFuture<?>> sent = commands.apply(redis.async());
            CompletableFuture.allOf(
                            sent.stream().map(RedisFuture::toCompletableFuture).toArray(CompletableFuture[]::new))
                    .whenComplete((ignored, failure) -> {
                        if (failure != null) {
                            log.warn("Cannot {} {} clients in Redis: {}", what, clients, failure.toString());
                        }
                    });
        } catch (RuntimeException e) {
            log.warn("Cannot {} {} clients in Redis: {}", what, clients, e.toString());
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
