package io.tributary.session.queue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.springframework.stereotype.Component;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.swagger.v3.oas.annotations.media.Schema;
import io.tributary.common.queue.SessionQueueKeys;
import io.tributary.session.redis.RedisAccess;

/**
 * Owns the lifecycle of session queues (see {@link SessionQueueKeys}): a persistent session gets one at CONNECT,
 * and it is deleted with the session — clean start, expiry 0 at disconnect, expiry, removal by an administrator.
 * Routing appends only to a queue that exists, so a deleted session's queue is not brought back by a late append.
 *
 * <p>Unlike presence, a failure here fails the caller: a persistent session without its queue would lose messages.
 */
@Component
public class SessionQueues {

    /** What the admin API shows of a queue. */
    @Schema(name = "SessionQueueStats")
    public record Stats(long queued, long dropped, long lastSeq) {
        public static final Stats NONE = new Stats(0, 0, 0);
    }

    private static final String STATS = """
            local meta = redis.call('HMGET', KEYS[2], ARGV[1], ARGV[2])
            return {redis.call('XLEN', KEYS[1]), meta[1], meta[2]}""";

    private final RedisAccess redis;

    public SessionQueues(RedisAccess redis) {
        this.redis = redis;
    }

    /** Makes sure these persistent sessions have a queue (kept as it is where one exists), pipelined. */
    public void ensureAll(Collection<String> clientIds, Instant now) {
        var async = redis.async();
        List<RedisFuture<?>> sent = new ArrayList<>(clientIds.size());
        for (String clientId : clientIds) {
            sent.add(async.hsetnx(SessionQueueKeys.meta(clientId), SessionQueueKeys.CREATED, now.toString()));
        }
        redis.awaitAll(sent);
    }

    /** {@link #delete} for many sessions, pipelined. */
    public void deleteAll(Collection<String> clientIds) {
        var async = redis.async();
        List<RedisFuture<?>> sent = new ArrayList<>(clientIds.size());
        for (String clientId : clientIds) {
            sent.add(async.del(SessionQueueKeys.queue(clientId), SessionQueueKeys.meta(clientId),
                    SessionQueueKeys.released(clientId), SessionQueueKeys.inboundQos2(clientId)));
        }
        redis.awaitAll(sent);
    }

    /**
     * Deletes the queue of {@code clientId}, with everything it held, and the packet ids of the client's own QoS 2
     * publishes awaiting PUBREL: they belong to the session too.
     */
    public void delete(String clientId) {
        redis.commands().del(SessionQueueKeys.queue(clientId), SessionQueueKeys.meta(clientId),
                SessionQueueKeys.released(clientId), SessionQueueKeys.inboundQos2(clientId));
    }

    /**
     * Length, drops and last sequence read in one step: read one after the other while routing appends, the length
     * could lag the sequence and show acknowledged-looking gaps that are not there.
     */
    public Stats stats(String clientId) {
        List<Object> read = redis.commands().eval(STATS, ScriptOutputType.MULTI,
                new String[] {SessionQueueKeys.queue(clientId), SessionQueueKeys.meta(clientId)},
                SessionQueueKeys.DROPPED, SessionQueueKeys.SEQ);
        return new Stats(number(read.get(0)), number(read.get(1)), number(read.get(2)));
    }

    private static long number(Object value) {
        if (value instanceof Long n) {
            return n;
        }
        return value == null ? 0 : Long.parseLong(value.toString());
    }
}
