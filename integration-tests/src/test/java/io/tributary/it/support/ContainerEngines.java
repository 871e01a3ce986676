package io.tributary.it.support;

import org.testcontainers.containers.GenericContainer;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/** The same engines as containers, for machines where a Docker engine answers. */
public final class ContainerEngines implements Engines {

    private final KafkaContainer kafka = new KafkaContainer(DockerImageName.parse("apache/kafka:4.1.0"));
    private final PostgreSQLContainer postgres =
            new PostgreSQLContainer(DockerImageName.parse("postgres:17-alpine")).withDatabaseName("tributary");
    /** With a password, as in docker-compose.yml and the Kubernetes manifests. */
    private final String redisPassword = java.util.HexFormat.of().formatHex(randomBytes());

    private final GenericContainer<?> redis = new GenericContainer<>(DockerImageName.parse("redis:7-alpine"))
            .withExposedPorts(6379)
            .withCommand("redis-server", "--requirepass", redisPassword);

    public ContainerEngines() {
        kafka.start();
        postgres.start();
        redis.start();
    }

    @Override
    public String kafkaBootstrapServers() {
        return kafka.getBootstrapServers();
    }

    @Override
    public String jdbcUrl() {
        return postgres.getJdbcUrl();
    }

    @Override
    public String dbUser() {
        return postgres.getUsername();
    }

    @Override
    public String dbPassword() {
        return postgres.getPassword();
    }

    @Override
    public String redisUrl() {
        return "redis://:" + redisPassword + "@" + redis.getHost() + ":" + redis.getMappedPort(6379);
    }

    private static byte[] randomBytes() {
        byte[] bytes = new byte[24];
        new java.security.SecureRandom().nextBytes(bytes);
        return bytes;
    }

    @Override
    public void killKafka() {
        throw new UnsupportedOperationException("Kafka crash tests run on the embedded engines");
    }

    @Override
    public void restartKafka() {
        throw new UnsupportedOperationException("Kafka crash tests run on the embedded engines");
    }

    @Override
    public void restartRedis() {
        throw new UnsupportedOperationException(
                "restart tests run on the embedded engines (a restarted container " + "gets new mapped ports)");
    }

    @Override
    public void restartPostgres() {
        throw new UnsupportedOperationException(
                "restart tests run on the embedded engines (a restarted container " + "gets new mapped ports)");
    }

    @Override
    public void close() {
        redis.stop();
        postgres.stop();
        kafka.stop();
    }
}
