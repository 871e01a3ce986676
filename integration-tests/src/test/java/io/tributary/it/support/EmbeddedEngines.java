package io.tributary.it.support;

import io.tributary.devstack.kafka.KafkaBrokerProcess;
import io.tributary.devstack.postgres.EmbeddedPostgresServer;
import io.tributary.devstack.redis.EmbeddedRedisServer;
import java.nio.file.Path;

/** Real engines from Maven Central artifacts: KRaft Kafka in its own JVM, embedded PostgreSQL and Redis. */
public final class EmbeddedEngines implements Engines {

    private final KafkaBrokerProcess kafka;
    private EmbeddedPostgresServer postgres;
    private EmbeddedRedisServer redis;

    private EmbeddedEngines(KafkaBrokerProcess kafka, EmbeddedPostgresServer postgres, EmbeddedRedisServer redis) {
        this.kafka = kafka;
        this.postgres = postgres;
        this.redis = redis;
    }

    public static EmbeddedEngines start(Path dir, Path logDir) throws Exception {
        return start(dir, logDir, null);
    }

    /**
     * Engines whose broker has a SASL_PLAINTEXT listener (mechanism PLAIN) for {@code users} as well; that listener
     * is the {@link #kafkaBootstrapServers()} the services get, so they must authenticate.
     */
    public static EmbeddedEngines startWithSaslPlain(Path dir, Path logDir, java.util.Map<String, String> users)
            throws Exception {
        return start(dir, logDir, users);
    }

    private static EmbeddedEngines start(Path dir, Path logDir, java.util.Map<String, String> saslUsers)
            throws Exception {
        KafkaBrokerProcess.Builder builder =
                KafkaBrokerProcess.builder(dir.resolve("kafka")).logFile(logDir.resolve("kafka.log"));
        if (saslUsers != null) {
            builder.saslPlainUsers(saslUsers);
        }
        KafkaBrokerProcess kafka = builder.build();
        kafka.start();
        EmbeddedPostgresServer postgres = null;
        try {
            postgres = EmbeddedPostgresServer.start(dir.resolve("postgres"), 0);
            return new EmbeddedEngines(kafka, postgres, EmbeddedRedisServer.start(dir.resolve("redis"), 0));
        } catch (Exception | Error e) {
            if (postgres != null) {
                postgres.stop();
            }
            kafka.stop();
            throw e;
        }
    }

    @Override
    public String kafkaBootstrapServers() {
        return kafka.saslBootstrapServers().orElse(kafka.bootstrapServers());
    }

    @Override
    public String jdbcUrl() {
        return postgres.jdbcUrl();
    }

    @Override
    public String dbUser() {
        return postgres.user();
    }

    @Override
    public String dbPassword() {
        return postgres.password();
    }

    @Override
    public String redisUrl() {
        return redis.url();
    }

    @Override
    public void killKafka() {
        kafka.kill();
    }

    @Override
    public void restartKafka() throws Exception {
        kafka.start();
    }

    @Override
    public synchronized void restartRedis() {
        redis.stop();
        redis = EmbeddedRedisServer.start(redis.dataDir(), redis.port());
    }

    @Override
    public synchronized void restartPostgres() {
        postgres.stop();
        postgres = EmbeddedPostgresServer.start(postgres.dataDir(), postgres.port());
    }

    @Override
    public void close() {
        redis.stop();
        postgres.stop();
        kafka.stop();
    }
}
