package io.tributary.sessionqueue;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;

/**
 * One of the session queue's Lua scripts ({@code src/main/resources/io/tributary/sessionqueue/*.lua}: every script
 * that touches a queue is there; every one that adds or removes entries keeps the queue's byte counter, with the
 * functions of {@code queue-bytes.lua}). Sent by digest (EVALSHA), by body only when Redis answers NOSCRIPT (it
 * restarted or flushed its script cache), so the body crosses the network about once per Redis start.
 */
final class LuaScript {

    static final LuaScript APPEND = load("seams.lua", "queue-bytes.lua", "append.lua");
    static final LuaScript FETCH = load("fetch.lua");
    static final LuaScript REMOVE = load("queue-bytes.lua", "remove.lua");
    static final LuaScript RELEASE = load("queue-bytes.lua", "release.lua");
    static final LuaScript RECORD_INBOUND_QOS2 = load("record-inbound-qos2.lua");
    static final LuaScript STATS = load("stats.lua");
    static final LuaScript HOLD = load("hold.lua");
    static final LuaScript APPEND_HISTORY = load("queue-bytes.lua", "append-history.lua");
    static final LuaScript RELEASE_HOLD = load("seams.lua", "queue-bytes.lua", "release-hold.lua");

    private final byte[] body;
    private final String digest;

    private LuaScript(byte[] body) {
        this.body = body;
        this.digest = digest(body);
    }

    /** A script made of {@code resources} one after the other (shared functions first, then the script's body). */
    static LuaScript load(String... resources) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (String resource : resources) {
            try (InputStream in = LuaScript.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("missing script " + resource);
                }
                body.writeBytes(in.readAllBytes());
                body.write('\n');
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return new LuaScript(body.toByteArray());
    }

    /**
     * Runs the script. Sending the body late, after NOSCRIPT, is safe: a script is one call, whole or not at all.
     * Throws what sending throws (a connection not there yet); a failed answer fails the future.
     */
    @SafeVarargs
    final <K, V, T> CompletableFuture<T> run(
            RedisScriptingAsyncCommands<K, V> redis, ScriptOutputType type, K[] keys, V... args) {
        return redis.<T>evalsha(digest, type, keys, args)
                .toCompletableFuture()
                .exceptionallyCompose(e -> isNoScript(e)
                        ? redis.<T>eval(body, type, keys, args).toCompletableFuture()
                        : CompletableFuture.failedFuture(e));
    }

    /** The SHA-1 Redis names a script by, in lower-case hex. */
    static String digest(byte[] script) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(script));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required of every JDK", e);
        }
    }

    /** Whether {@code error} (or a cause of it) is Redis's NOSCRIPT reply: send the script's body instead. */
    static boolean isNoScript(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().startsWith("NOSCRIPT")) {
                return true;
            }
        }
        return false;
    }
}
