package io.tributary.session.redis;

import org.springframework.stereotype.Component;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.tributary.session.config.SessionServiceProperties;

/**
 * The process's one Redis connection (presence, session queues). Opened on first use and re-established by Lettuce;
 * while Redis is down commands fail at once instead of queueing, so callers decide what a failure means.
 */
@Component
public class RedisAccess implements AutoCloseable {

    private final RedisClient client;
    private volatile StatefulRedisConnection<String, String> connection;

    public RedisAccess(SessionServiceProperties properties) {
        RedisURI uri = RedisURI.create(properties.redis().url());
        uri.setTimeout(properties.redis().commandTimeout());
        this.client = RedisClient.create(uri);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                .socketOptions(SocketOptions.builder().connectTimeout(properties.redis().commandTimeout()).build())
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(properties.redis().commandTimeout()))
                .build());
    }

    public RedisCommands<String, String> commands() {
        StatefulRedisConnection<String, String> c = connection;
        if (c == null) {
            synchronized (this) {
                c = connection;
                if (c == null) {
                    c = client.connect(StringCodec.UTF8);
                    connection = c;
                }
            }
        }
        return c.sync();
    }

    @Override
    public void close() {
        StatefulRedisConnection<String, String> c = connection;
        if (c != null) {
            c.close();
        }
        client.shutdown();
    }
}
