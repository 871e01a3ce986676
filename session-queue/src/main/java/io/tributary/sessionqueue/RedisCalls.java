package io.tributary.sessionqueue;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/** What the Redis-backed queue classes share to call Redis: keys and arguments as bytes, and one failure path. */
final class RedisCalls {

    private RedisCalls() {}

    /**
     * Runs an asynchronous Redis call. A client that is not connected (Redis down) throws rather than fail the
     * future; the caller's retry logic should see one kind of failure, so that becomes a failed future too.
     */
    static <T> CompletableFuture<T> call(Supplier<CompletableFuture<T>> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    static byte[][] keys(String... keys) {
        byte[][] out = new byte[keys.length][];
        for (int i = 0; i < keys.length; i++) {
            out[i] = bytes(keys[i]);
        }
        return out;
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
