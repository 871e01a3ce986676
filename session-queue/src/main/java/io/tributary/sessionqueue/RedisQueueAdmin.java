package io.tributary.sessionqueue;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.tributary.redis.ManagedRedisConnection;
import io.tributary.redis.RedisFutures;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** {@link QueueAdmin} over a text connection to Redis (session-service shares it with presence). */
public final class RedisQueueAdmin implements QueueAdmin {

    private final ManagedRedisConnection<String, String> redis;

    public RedisQueueAdmin(ManagedRedisConnection<String, String> redis) {
        this.redis = redis;
    }

    @Override
    public void ensureAll(Collection<String> clientIds, Instant now) {
        RedisAsyncCommands<String, String> async = redis.connection().async();
        List<RedisFuture<?>> sent = new ArrayList<>(clientIds.size());
        for (String clientId : clientIds) {
            sent.add(async.hsetnx(SessionQueueKeys.meta(clientId), SessionQueueKeys.CREATED, now.toString()));
        }
        await(sent);
    }

    @Override
    public void deleteAll(Collection<String> clientIds) {
        RedisAsyncCommands<String, String> async = redis.connection().async();
        List<RedisFuture<?>> sent = new ArrayList<>(clientIds.size());
        for (String clientId : clientIds) {
            sent.add(async.del(allKeys(clientId)));
        }
        await(sent);
    }

    @Override
    public void delete(String clientId) {
        redis.connection().sync().del(allKeys(clientId));
    }

    @Override
    public Stats stats(String clientId) {
        List<Object> read = RedisFutures.await(
                LuaScript.STATS.<String, String, List<Object>>run(
                        redis.connection().async(),
                        ScriptOutputType.MULTI,
                        new String[] {SessionQueueKeys.queue(clientId), SessionQueueKeys.meta(clientId)},
                        SessionQueueKeys.DROPPED,
                        SessionQueueKeys.SEQ),
                redis.settings().commandTimeout());
        return new Stats(number(read.get(0)), number(read.get(1)), number(read.get(2)));
    }

    private static String[] allKeys(String clientId) {
        return new String[] {
            SessionQueueKeys.queue(clientId),
            SessionQueueKeys.meta(clientId),
            SessionQueueKeys.released(clientId),
            SessionQueueKeys.inboundQos2(clientId),
            SessionQueueKeys.hold(clientId),
            SessionQueueKeys.held(clientId),
            SessionQueueKeys.covered(clientId)
        };
    }

    private void await(List<RedisFuture<?>> sent) {
        RedisFutures.awaitAll(sent, redis.settings().commandTimeout());
    }

    private static long number(Object value) {
        if (value instanceof Long n) {
            return n;
        }
        return value == null ? 0 : Long.parseLong(value.toString());
    }
}
