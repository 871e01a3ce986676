package io.tributary.session.support;

import java.io.IOException;
import java.sql.Connection;
import java.sql.Statement;

import javax.sql.DataSource;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import redis.embedded.RedisServer;

/**
 * The real engines the tests run against, started once per test JVM and shared: PostgreSQL (zonky embedded
 * binaries), Redis (embedded-redis binary) and a single-node KRaft Kafka broker. A test that stops an engine to see
 * the service fail leaves it stopped; the next caller gets a fresh one.
 */
public final class TestEngines {

    public static final String DATABASE = "tributary_test";

    private static EmbeddedPostgres postgres;
    private static RedisServer redis;
    private static int redisPort;
    private static KraftBroker kafka;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(TestEngines::stopAll, "test-engines-stop"));
    }

    private TestEngines() {
    }

    /** JDBC URL of the test database (created on first use). */
    public static synchronized String postgresUrl() {
        if (postgres == null) {
            try {
                postgres = EmbeddedPostgres.builder().start();
                try (Connection c = postgres.getPostgresDatabase().getConnection();
                        Statement s = c.createStatement()) {
                    s.execute("CREATE DATABASE " + DATABASE);
                }
            } catch (Exception e) {
                throw new IllegalStateException("cannot start embedded PostgreSQL", e);
            }
        }
        return postgres.getJdbcUrl("postgres", DATABASE);
    }

    /** JDBC URL of a database that does not exist on the running server. */
    public static synchronized String missingDatabaseUrl() {
        postgresUrl();
        return postgres.getJdbcUrl("postgres", "no_such_database");
    }

    public static synchronized DataSource postgresAdmin() {
        postgresUrl();
        return postgres.getPostgresDatabase();
    }

    public static synchronized String redisUrl() {
        if (redis == null) {
            try {
                redisPort = KraftBroker.freePort();
                redis = new RedisServer(redisPort);
                redis.start();
            } catch (IOException e) {
                throw new IllegalStateException("cannot start embedded Redis", e);
            }
        }
        return "redis://127.0.0.1:" + redisPort;
    }

    public static synchronized String kafkaBootstrap() {
        if (kafka == null) {
            try {
                kafka = KraftBroker.start();
            } catch (Exception e) {
                throw new IllegalStateException("cannot start the KRaft broker", e);
            }
        }
        return kafka.bootstrapServers();
    }

    public static synchronized void stopKafka() {
        if (kafka != null) {
            try {
                kafka.close();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            } finally {
                kafka = null;
            }
        }
    }

    public static synchronized void stopPostgres() {
        if (postgres != null) {
            try {
                postgres.close();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            } finally {
                postgres = null;
            }
        }
    }

    private static synchronized void stopAll() {
        try {
            stopKafka();
        } catch (RuntimeException ignored) {
            // best effort at JVM exit
        }
        try {
            stopPostgres();
        } catch (RuntimeException ignored) {
            // best effort at JVM exit
        }
        if (redis != null) {
            try {
                redis.stop();
            } catch (IOException ignored) {
                // best effort at JVM exit
            }
            redis = null;
        }
    }
}
