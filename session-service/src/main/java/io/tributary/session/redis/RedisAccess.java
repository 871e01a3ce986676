package io.tributary.session.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.springframework.stereotype.Component;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.metrics.MicrometerCommandLatencyRecorder;
import io.lettuce.core.metrics.MicrometerOptions;
import io.lettuce.core.resource.ClientResources;
import io.micrometer.core.instrument.MeterRegistry;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.tributary.session.config.SessionServiceProperties;

/**
 * The process's one Redis connection (presence, session queues). Opened on first use and re-established by Lettuce;
 * while Redis is down commands fail at once instead of queueing, so callers decide what a failure means.
 */
@Component
public class RedisAccess implements AutoCloseable {

    /** Lettuce's own resources, with command latencies recorded as Micrometer timers (lettuce.command.*). */
    private final ClientResources resources;
    private final RedisClient client;
    private final Duration timeout;
    private volatile StatefulRedisConnection<String, String> connection;

    public RedisAccess(SessionServiceProperties properties, MeterRegistry meters) {
        this.timeout = properties.redis().commandTimeout();
        RedisURI uri = RedisURI.create(properties.redis().url());
        uri.setTimeout(properties.redis().commandTimeout());
        this.resources = ClientResources.builder().commandLatencyRecorder(new MicrometerCommandLatencyRecorder(
                meters, MicrometerOptions.builder().histogram(true).build())).build();
        this.client = RedisClient.create(resources, uri);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                .socketOptions(SocketOptions.builder().connectTimeout(properties.redis().commandTimeout()).build())
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(properties.redis().commandTimeout()))
                .build());
    }

    public RedisCommands<String, String> commands() {
        return connection().sync();
    }

    /** Commands sent without waiting for each answer: many in a row travel as one pipeline. */
    public RedisAsyncCommands<String, String> async() {
        return connection().async();
    }

    /**
     * Waits for the answers of commands sent through {@link #async()}; the first failure is thrown.
     *
     * @throws RedisCommandExecutionException or another Lettuce exception, as the synchronous commands would
     */
    public void awaitAll(List<? extends RedisFuture<?>> futures) {
        for (RedisFuture<?> f : futures) {
            try {
                f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RedisException("interrupted waiting for Redis", e);
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : new RedisException(e.getCause());
            } catch (TimeoutException e) {
                throw new RedisCommandTimeoutException("Redis did not answer within " + timeout.toMillis() + " ms");
            }
        }
    }

    private StatefulRedisConnection<String, String> connection() {
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
        return c;
    }

    @Override
    public void close() {
        StatefulRedisConnection<String, String> c = connection;
        if (c != null) {
            c.close();
        }
        client.shutdown();
        resources.shutdown();
    }
}
