package io.tributary.it.support;

/** Kafka, PostgreSQL and Redis for one test cluster: embedded engines, or containers where Docker answers. */
public interface Engines extends AutoCloseable {

    String kafkaBootstrapServers();

    String jdbcUrl();

    String dbUser();

    String dbPassword();

    String redisUrl();

    /** SIGKILL of the Kafka broker. */
    void killKafka();

    /** Starts the broker again on the same data and address; returns once it answers. */
    void restartKafka() throws Exception;

    /** Stops Redis and starts it again on the same data and address; returns once it answers. */
    void restartRedis() throws Exception;

    /** Stops PostgreSQL and starts it again on the same data and address; returns once it answers. */
    void restartPostgres() throws Exception;

    @Override
    void close();
}
