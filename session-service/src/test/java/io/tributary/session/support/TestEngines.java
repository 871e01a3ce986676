package io.tributary.session.support;

import io.tributary.devstack.kafka.EmbeddedKafka;
import io.tributary.devstack.postgres.EmbeddedPostgresServer;
import io.tributary.devstack.redis.EmbeddedRedisServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The real engines the tests run against, started once per test JVM and shared: PostgreSQL, Redis and a
 * single-node KRaft Kafka broker (the dev stack's embedded servers). A test that stops an engine to see the service
 * fail leaves it stopped; the next caller gets a fresh one, on new ports and an empty data directory. All data is
 * deleted when the JVM exits.
 */
public final class TestEngines {

    /**
     * Under target/ rather than a 0700 temp dir: as root without user namespaces PostgreSQL runs as nobody, who must
     * be able to reach its data directory.
     */
    private static final Path DATA =
            Path.of("target", "test-engines", UUID.randomUUID().toString()).toAbsolutePath();

    private static EmbeddedPostgresServer postgres;
    private static EmbeddedRedisServer redis;
    private static EmbeddedKafka kafka;
    private static int started;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(TestEngines::stopAll, "test-engines-stop"));
    }

    private TestEngines() {}

    /** JDBC URL of the test database (created on first use). */
    public static synchronized String postgresUrl() {
        if (postgres == null) {
            postgres = EmbeddedPostgresServer.start(freshDirectory("postgres"));
        }
        return postgres.jdbcUrl();
    }

    /** JDBC URL of a database that does not exist on the running server. */
    public static synchronized String missingDatabaseUrl() {
        postgresUrl();
        return "jdbc:postgresql://127.0.0.1:" + postgres.port() + "/no_such_database";
    }

    public static synchronized String redisUrl() {
        if (redis == null) {
            redis = EmbeddedRedisServer.start(freshDirectory("redis"));
        }
        return redis.url();
    }

    public static synchronized String kafkaBootstrap() {
        if (kafka == null) {
            kafka = EmbeddedKafka.start(freshDirectory("kafka"));
        }
        return kafka.bootstrapServers();
    }

    /**
     * A producer to the test Kafka broker writing records as the services do (byte keys and values, acks=all): for
     * tests that put publish or retained records on topics themselves.
     */
    public static Producer<byte[], byte[]> kafkaProducer() {
        return new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafkaBootstrap(),
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class));
    }

    public static synchronized void stopKafka() {
        if (kafka != null) {
            try {
                kafka.close();
            } finally {
                kafka = null;
            }
        }
    }

    public static synchronized void stopPostgres() {
        if (postgres != null) {
            try {
                postgres.close();
            } finally {
                postgres = null;
            }
        }
    }

    private static Path freshDirectory(String engine) {
        return DATA.resolve(engine + "-" + ++started);
    }

    private static synchronized void stopAll() {
        quietly(TestEngines::stopKafka);
        quietly(TestEngines::stopPostgres);
        if (redis != null) {
            quietly(redis::stop);
            redis = null;
        }
        try (Stream<Path> paths = Files.walk(DATA)) {
            paths.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // nothing was started, or the files are gone already
        }
    }

    private static void quietly(Runnable stop) {
        try {
            stop.run();
        } catch (RuntimeException ignored) {
            // best effort at JVM exit
        }
    }
}
