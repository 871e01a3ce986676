package io.tributary.session.queue;

import java.time.Instant;
import java.util.List;

import org.springframework.stereotype.Component;

import io.lettuce.core.KeyValue;
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
    public record Stats(long queued, long dropped, long lastSeq) {
        public static final Stats NONE = new Stats(0, 0, 0);
    }

    private final RedisAccess redis;

    public SessionQueues(RedisAccess redis) {
        this.redis = redis;
    }

    /** Makes sure the persistent session of {@code clientId} has a queue (kept as it is if it exists). */
    public void ensure(String clientId, Instant now) {
        redis.commands().hsetnx(SessionQueueKeys.meta(clientId), SessionQueueKeys.CREATED, now.toString());
    }

    /**
     * Deletes the queue of {@code clientId}, with everything it held, and the packet ids of the client's own QoS 2
     * publishes awaiting PUBREL: they belong to the session too.
     */
    public void delete(String clientId) {
        redis.commands().del(SessionQueueKeys.queue(clientId), SessionQueueKeys.meta(clientId),
                SessionQueueKeys.released(clientId), SessionQueueKeys.inboundQos2(clientId));
    }

    public Stats stats(String clientId) {
        long length = redis.commands().xlen(SessionQueueKeys.queue(clientId));
        List<KeyValue<String, String>> meta = redis.commands().hmget(SessionQueueKeys.meta(clientId),
                SessionQueueKeys.DROPPED, SessionQueueKeys.SEQ);
        return new Stats(length, number(meta.get(0)), number(meta.get(1)));
    }

    private static long number(KeyValue<String, String> value) {
        return value.hasValue() ? Long.parseLong(value.getValue()) : 0;
    }
}
