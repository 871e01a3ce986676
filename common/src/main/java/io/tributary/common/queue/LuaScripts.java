package io.tributary.common.queue;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The session queue scripts are sent by digest (EVALSHA) by routing and transport nodes, and by body only when Redis
 * answers NOSCRIPT (it restarted or flushed its script cache). What both sides need for that, without a Redis client.
 */
public final class LuaScripts {

    private LuaScripts() {
    }

    /** The SHA-1 Redis names a script by, in lower-case hex. */
    public static String digest(byte[] script) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(script));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required of every JDK", e);
        }
    }

    /** Whether {@code error} (or a cause of it) is Redis's NOSCRIPT reply: send the script's body instead. */
    public static boolean isNoScript(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().startsWith("NOSCRIPT")) {
                return true;
            }
        }
        return false;
    }
}
