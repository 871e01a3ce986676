package io.tributary.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.metrics.MicrometerCommandLatencyRecorder;
import io.lettuce.core.metrics.MicrometerOptions;
import io.lettuce.core.resource.ClientResources;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The one place a Redis client is built: routing (session queue appends), transport (session queue reads, inbound
 * QoS 2 ids) and session-service (presence, session queue lifecycle) all connect through here, so they agree on
 * timeouts, on what happens while Redis is down and on how a connection comes back.
 *
 * <p>What every connection gets:
 * <ul>
 *   <li>the URL as given ({@code rediss://} for TLS, a password in it for AUTH), the command timeout on every
 *       command and as the TCP connect timeout, the client name;</li>
 *   <li>auto-reconnect, and {@link ClientOptions.DisconnectedBehavior#REJECT_COMMANDS}: while Redis is down commands
 *       fail at once instead of piling up in memory; every caller already retries or degrades on a failure (routing
 *       routes the batch again, Kafka keeps the publishes; transport retries its reads; session-service fails the
 *       request or, for presence, logs);</li>
 *   <li>command latencies as Micrometer timers ({@code lettuce.command.*});</li>
 *   <li>the connect strategy of {@link ManagedRedisConnection}.</li>
 * </ul>
 */
public final class RedisClientFactory {

    private RedisClientFactory() {}

    /**
     * Opens one connection with {@code codec} (the caller owns it and closes it; it owns its client and resources).
     * Returns at once whether or not Redis answered (see {@link ManagedRedisConnection}).
     */
    public static <K, V> ManagedRedisConnection<K, V> open(
            RedisSettings settings, RedisCodec<K, V> codec, MeterRegistry meters) {
        ClientResources resources = ClientResources.builder()
                .commandLatencyRecorder(new MicrometerCommandLatencyRecorder(
                        meters, MicrometerOptions.builder().histogram(true).build()))
                .build();
        RedisClient client = RedisClient.create(resources, uri(settings));
        client.setOptions(options(settings));
        return new ManagedRedisConnection<>(settings, resources, client, codec);
    }

    static RedisURI uri(RedisSettings settings) {
        RedisURI uri = RedisURI.create(settings.url());
        uri.setTimeout(settings.commandTimeout());
        uri.setClientName(settings.clientName());
        return uri;
    }

    static ClientOptions options(RedisSettings settings) {
        return ClientOptions.builder()
                .autoReconnect(true)
                .socketOptions(SocketOptions.builder()
                        .connectTimeout(settings.commandTimeout())
                        .build())
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(settings.commandTimeout()))
                .build();
    }
}
