package io.tributary.redis;

import java.time.Duration;
import java.util.Objects;

/**
 * How a service reaches Redis, typed. Everything the services configure today, in one place:
 *
 * @param url            {@code redis://[[user]:password@]host:port[/db]}, {@code rediss://...} for TLS (the services'
 *                       {@code REDIS_URL}); Lettuce's URL syntax, so an AUTH password or ACL user travels in it
 * @param commandTimeout longest wait for one command's answer, and for the TCP connect
 * @param connectRetry   pause between attempts of the first connect when Redis is not there at start-up; once
 *                       connected, Lettuce re-establishes a lost connection by itself (its exponential delay)
 * @param clientName     shown by {@code CLIENT LIST} (which service a connection belongs to); set at every (re)connect
 */
public record RedisSettings(String url, Duration commandTimeout, Duration connectRetry, String clientName) {

    /** The pause between first-connect attempts every service used so far. */
    public static final Duration DEFAULT_CONNECT_RETRY = Duration.ofSeconds(1);

    public RedisSettings {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(commandTimeout, "commandTimeout");
        Objects.requireNonNull(connectRetry, "connectRetry");
        Objects.requireNonNull(clientName, "clientName");
        if (url.isBlank()) {
            throw new IllegalArgumentException("a Redis URL is required");
        }
        if (commandTimeout.isNegative() || commandTimeout.isZero()) {
            throw new IllegalArgumentException("commandTimeout must be positive: " + commandTimeout);
        }
        if (connectRetry.isNegative() || connectRetry.isZero()) {
            throw new IllegalArgumentException("connectRetry must be positive: " + connectRetry);
        }
    }

    /** Without the password the URL may carry: settings end up in logs and error messages. */
    @Override
    public String toString() {
        return "RedisSettings[url=" + redacted(url) + ", commandTimeout=" + commandTimeout + ", connectRetry="
                + connectRetry + ", clientName=" + clientName + "]";
    }

    /** {@code url} with the user information before {@code @} (an AUTH password, an ACL user's) replaced. */
    public static String redacted(String url) {
        if (url == null) {
            return null;
        }
        int scheme = url.indexOf("://");
        int at = url.lastIndexOf('@');
        if (scheme < 0 || at < scheme) {
            return url;
        }
        return url.substring(0, scheme + 3) + "(redacted)" + url.substring(at);
    }

    /** Settings with the default first-connect retry. */
    public static RedisSettings of(String url, Duration commandTimeout, String clientName) {
        return new RedisSettings(url, commandTimeout, DEFAULT_CONNECT_RETRY, clientName);
    }
}
