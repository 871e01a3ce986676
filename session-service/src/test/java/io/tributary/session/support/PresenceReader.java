package io.tributary.session.support;

import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Reads a client's presence hash as session-service leaves it. Presence is written after the answer and never
 * awaited (session-service {@code PresenceStore}), so a test reading it over its own Redis connection waits for it.
 */
public final class PresenceReader {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private PresenceReader() {}

    /** The client's presence hash once it holds {@code epoch} (connected or ended). */
    public static Map<String, String> atEpoch(
            StatefulRedisConnection<String, String> redis, String clientId, long epoch) {
        return await(redis, clientId, hash -> Long.toString(epoch).equals(hash.get("epoch")), "to hold epoch " + epoch);
    }

    /** Waits until the client is not present: no hash, or the tombstone an ended connection leaves (no node). */
    public static void awaitGone(StatefulRedisConnection<String, String> redis, String clientId) {
        await(redis, clientId, hash -> hash.get("node") == null, "to have no node");
    }

    private static Map<String, String> await(
            StatefulRedisConnection<String, String> redis,
            String clientId,
            Predicate<Map<String, String>> done,
            String expectation) {
        String key = "tributary:presence:" + clientId;
        long deadline = System.nanoTime() + WAIT.toNanos();
        Map<String, String> hash = redis.sync().hgetall(key);
        while (!done.test(hash)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("expected " + key + " " + expectation + " within " + WAIT + ", was " + hash);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
            hash = redis.sync().hgetall(key);
        }
        return hash;
    }
}
