package io.tributary.it.support;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The services' Redis environment as docker-compose.yml and the Kubernetes manifests give it: the password alone in
 * {@code REDIS_PASSWORD} (from a secret there), and {@code REDIS_URL} naming it as {@code ${REDIS_PASSWORD}}, which
 * each service's Spring environment resolves at start-up. So every cluster test also proves that the three services
 * authenticate with a URL built that way.
 */
final class RedisEnv {

    private RedisEnv() {}

    /** {@code REDIS_URL} (and {@code REDIS_PASSWORD} when {@code url} carries a password) for {@code url}. */
    static Map<String, String> of(String url) {
        URI uri = URI.create(url);
        String userInfo = uri.getRawUserInfo();
        Map<String, String> env = new LinkedHashMap<>();
        int colon = userInfo == null ? -1 : userInfo.indexOf(':');
        if (colon < 0) {
            env.put("REDIS_URL", url);
            return env;
        }
        String scheme = url.substring(0, url.indexOf("://") + 3);
        String hostAndRest = url.substring(url.lastIndexOf('@') + 1);
        env.put("REDIS_PASSWORD", userInfo.substring(colon + 1));
        env.put("REDIS_URL", scheme + userInfo.substring(0, colon) + ":${REDIS_PASSWORD}@" + hostAndRest);
        return env;
    }

    /** {@code url} without its user information, for what is printed. */
    static String redacted(String url) {
        int scheme = url.indexOf("://");
        int at = url.lastIndexOf('@');
        return scheme < 0 || at < scheme ? url : url.substring(0, scheme + 3) + "(redacted)" + url.substring(at);
    }
}
