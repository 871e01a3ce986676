package io.tributary.redis;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.resource.ClientResources;
import io.tributary.common.concurrent.DaemonThreads;
import io.tributary.common.retry.Backoff;
import java.net.SocketAddress;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A process's connection to Redis, made by {@link RedisClientFactory}, thread-safe; Lettuce pipelines what several
 * threads send over it.
 *
 * <p>The connect strategy, the same for every service: connect once on the thread that builds this (the service's
 * start); if Redis is not there, keep trying in the background every {@link RedisSettings#connectRetry()}, and until
 * then fail every command at once ({@link #connection()} throws {@link RedisConnectionException}, as a command to a
 * Redis that is down would). Once connected, Lettuce re-establishes a lost connection itself.
 *
 * <p>Why this one of the three the services had: routing and session-service connected on first use, so while Redis
 * was away every caller (the routing loop between batches, each HTTP request, one after the other) blocked up to the
 * connect timeout in {@code connect}; transport could not do that at all, its callers being Netty event loops, and
 * connected at start with a background retry. That one never blocks a caller on a TCP connect, serves from the first
 * request when Redis is up, and, like the other two, lets the service start without Redis (its health shows Redis
 * down, the callers' retries take over) rather than failing the start: a broker should come up in any order with its
 * stores. Failing fast at start would have needed an ordering the deployments do not give.
 */
public final class ManagedRedisConnection<K, V> implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ManagedRedisConnection.class);

    private final RedisSettings settings;
    private final ClientResources resources;
    private final RedisClient client;
    private final RedisCodec<K, V> codec;
    /** Null until the first connect succeeded; from then on Lettuce keeps it connected. */
    private volatile StatefulRedisConnection<K, V> connection;

    private final ScheduledExecutorService connector;
    private final Backoff retry;
    private final AtomicInteger connects = new AtomicInteger();
    /** Failed first-connect attempts, touched only by the constructor and then the connector thread. */
    private int connectFailures;

    private volatile Runnable reconnected = () -> {};
    private volatile boolean closed;

    ManagedRedisConnection(
            RedisSettings settings, ClientResources resources, RedisClient client, RedisCodec<K, V> codec) {
        this.settings = settings;
        this.resources = resources;
        this.client = client;
        this.codec = codec;
        this.retry = Backoff.fixed(settings.connectRetry());
        this.connector = DaemonThreads.scheduler("redis-connect-" + settings.clientName());
        client.addListener(new RedisConnectionStateListener() {
            @Override
            public void onRedisConnected(RedisChannelHandler<?, ?> handler, SocketAddress address) {
                if (connects.incrementAndGet() > 1) {
                    reconnected.run();
                }
            }
        });
        connect();
    }

    private void connect() {
        if (closed) {
            return;
        }
        try {
            connection = client.connect(codec);
            if (connectFailures > 0) {
                log.info("Connected to Redis ({}) after {} failed attempts", settings.clientName(), connectFailures);
            }
            retry.reset();
        } catch (RuntimeException e) {
            if (connectFailures++ == 0) {
                log.warn(
                        "Cannot connect to Redis ({}), retrying every {} ms: {}",
                        settings.clientName(),
                        settings.connectRetry().toMillis(),
                        e.toString());
            }
            if (!connector.isShutdown()) {
                connector.schedule(this::connect, retry.next().toMillis(), TimeUnit.MILLISECONDS);
            }
        }
    }

    /**
     * The connection; until the first connect succeeded every call throws {@link RedisConnectionException}, like a
     * command to a Redis that is down. Never blocks.
     */
    public StatefulRedisConnection<K, V> connection() {
        StatefulRedisConnection<K, V> c = connection;
        if (c == null) {
            throw new RedisConnectionException("not connected to Redis yet (connecting in the background)");
        }
        return c;
    }

    /** Whether the first connect succeeded (the connection may be down for a moment since). */
    public boolean everConnected() {
        return connection != null;
    }

    /**
     * Told, on a Lettuce thread, after the connection was re-established. Redis may have come back with less than it
     * had (a crash loses up to a second of writes with {@code appendfsync everysec}; a failover to a lagging replica
     * too), which a reader of state it caches may need to know.
     */
    public void onReconnected(Runnable listener) {
        this.reconnected = listener;
    }

    public RedisSettings settings() {
        return settings;
    }

    @Override
    public void close() {
        closed = true;
        connector.shutdownNow();
        StatefulRedisConnection<K, V> c = connection;
        if (c != null) {
            c.close();
        }
        client.shutdown();
        resources.shutdown();
    }
}
