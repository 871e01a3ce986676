package io.tributary.transport.limits.tenant;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import io.tributary.redis.ManagedRedisConnection;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The cluster-wide quota counters in Redis: one key per tenant, quota and one-second window of Redis's clock, taken
 * from by {@code take.lua} in one atomic call (sent by digest, by body after NOSCRIPT). Keys hash-tag the tenant, so a
 * tenant's counters share a Redis Cluster slot.
 */
public final class RedisQuotaCounters {

    private static final byte[] SCRIPT = load();
    private static final String DIGEST = digest(SCRIPT);

    private final ManagedRedisConnection<byte[], byte[]> redis;

    public RedisQuotaCounters(ManagedRedisConnection<byte[], byte[]> redis) {
        this.redis = redis;
    }

    /** The counter of {@code quota} ({@code publish_rate}, {@code publish_bytes}, {@code delivery_bytes}) of {@code tenant}. */
    QuotaLease.QuotaCounter counter(String tenant, String quota) {
        byte[][] keys = {bytes("tributary:tenant-quota:{" + tenant + "}:" + quota)};
        return (limit, want, owed) -> {
            RedisScriptingAsyncCommands<byte[], byte[]> commands =
                    redis.connection().async();
            byte[][] args = {bytes(Long.toString(limit)), bytes(Long.toString(want)), bytes(Long.toString(owed))};
            return commands.<List<Long>>evalsha(DIGEST, ScriptOutputType.MULTI, keys, args)
                    .toCompletableFuture()
                    .exceptionallyCompose(e -> isNoScript(e)
                            ? commands.<List<Long>>eval(SCRIPT, ScriptOutputType.MULTI, keys, args)
                                    .toCompletableFuture()
                            : CompletableFuture.failedFuture(e))
                    .thenApply(answer ->
                            new QuotaLease.Grant(answer.get(0), TimeUnit.MICROSECONDS.toNanos(answer.get(1))));
        };
    }

    private static boolean isNoScript(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().startsWith("NOSCRIPT")) {
                return true;
            }
        }
        return false;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] load() {
        try (InputStream in = RedisQuotaCounters.class.getResourceAsStream("take.lua")) {
            if (in == null) {
                throw new IllegalStateException("missing script take.lua");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String digest(byte[] script) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(script));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required of every JDK", e);
        }
    }
}
