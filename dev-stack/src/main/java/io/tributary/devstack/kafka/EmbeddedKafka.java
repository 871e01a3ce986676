package io.tributary.devstack.kafka;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.properties.MetaPropertiesEnsemble;
import org.apache.kafka.metadata.storage.Formatter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Kafka 4 broker in KRaft mode (one process acting as broker and controller) running in this
 * JVM. The data directory survives restarts: it is formatted only when it holds no {@code meta.properties} yet.
 * Use {@link KafkaBrokerProcess} to run the same broker as a separate OS process.
 */
public final class EmbeddedKafka implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafka.class);
    private static final int NODE_ID = 1;
    private static final String CONTROLLER_LISTENER = "CONTROLLER";
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

    private final Path dataDir;
    private final KafkaPorts ports;
    /** The optional SASL/PLAIN listener, or null. */
    private final SaslPlainListener sasl;

    private KafkaRaftServer server;

    private EmbeddedKafka(Path dataDir, KafkaPorts ports, SaslPlainListener sasl) {
        this.dataDir = dataDir.toAbsolutePath();
        this.ports = ports;
        this.sasl = sasl;
    }

    /** Starts a broker on free ports. */
    public static EmbeddedKafka start(Path dataDir) {
        return start(dataDir, 0, 0);
    }

    /**
     * Starts a broker on the given client and controller ports (0 = a free port) and returns once it answers an
     * Admin {@code describeCluster} that lists it. A fixed client port lets clients be told the address before the
     * broker exists.
     */
    public static EmbeddedKafka start(Path dataDir, int port, int controllerPort) {
        return start(dataDir, port, controllerPort, null);
    }

    /** As {@link #start(Path, int, int)}, with a SASL/PLAIN client listener as well when {@code sasl} is given. */
    public static EmbeddedKafka start(Path dataDir, int port, int controllerPort, SaslPlainListener sasl) {
        KafkaPorts ports = KafkaPorts.choose(port, controllerPort);
        ports.requireFree();
        if (sasl != null) {
            io.tributary.devstack.net.Ports.requireFree(sasl.port(), "Kafka SASL", "KAFKA_SASL_PORT");
        }
        EmbeddedKafka kafka = new EmbeddedKafka(dataDir, ports, sasl);
        kafka.startServer();
        return kafka;
    }

    public String bootstrapServers() {
        return ports.bootstrapServers();
    }

    public int port() {
        return ports.client();
    }

    public int controllerPort() {
        return ports.controller();
    }

    public Path dataDir() {
        return dataDir;
    }

    /** Controlled shutdown; the data stays. */
    public synchronized void stop() {
        if (server != null) {
            server.shutdown();
            server.awaitShutdown();
            server = null;
            LOG.info("Kafka broker on {} stopped", bootstrapServers());
        }
    }

    @Override
    public void close() {
        stop();
    }

    private synchronized void startServer() {
        try {
            Files.createDirectories(dataDir);
            KafkaConfig config = new KafkaConfig(brokerProperties(), false);
            formatIfNeeded();
            server = new KafkaRaftServer(config, Time.SYSTEM);
            server.startup();
            awaitAnswering();
            LOG.info("Kafka broker ready on {} (data in {})", bootstrapServers(), dataDir);
        } catch (IOException e) {
            stopQuietly();
            throw new IllegalStateException("cannot start Kafka in " + dataDir, e);
        } catch (RuntimeException e) {
            stopQuietly();
            throw e;
        }
    }

    private Properties brokerProperties() {
        Properties props = new Properties();
        props.putAll(Map.ofEntries(
                Map.entry("process.roles", "broker,controller"),
                Map.entry("node.id", String.valueOf(NODE_ID)),
                // Static quorum of one voter: nothing about the quorum is stored at format time, so the ports can
                // differ from one start to the next.
                Map.entry("controller.quorum.voters", NODE_ID + "@" + ports.controllerAddress()),
                Map.entry("controller.listener.names", CONTROLLER_LISTENER),
                Map.entry(
                        "listeners",
                        "PLAINTEXT://" + bootstrapServers() + "," + CONTROLLER_LISTENER + "://"
                                + ports.controllerAddress()),
                Map.entry("advertised.listeners", "PLAINTEXT://" + bootstrapServers()),
                Map.entry("inter.broker.listener.name", "PLAINTEXT"),
                Map.entry(
                        "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT"),
                Map.entry("log.dirs", dataDir.toString()),
                Map.entry("num.partitions", "1"),
                Map.entry("auto.create.topics.enable", "false"),
                Map.entry("group.initial.rebalance.delay.ms", "0"),
                // Lets a consumer group's own config (consumer.session.timeout.ms) go up to 2 minutes; the default
                // session timeout (45 s) is unchanged. A static member restarted on a loaded box can need longer.
                Map.entry("group.consumer.max.session.timeout.ms", "120000"),
                // ... and down to 5 s with heartbeats down to 0.5 s (the defaults, 45 s and 5 s, stay): the
                // integration cluster gives its routers' group 10 s, so a killed router's partitions move on within
                // seconds instead of waiting 45 s for its session to expire.
                Map.entry("group.consumer.min.session.timeout.ms", "5000"),
                Map.entry("group.consumer.min.heartbeat.interval.ms", "500"),
                // One broker: every internal topic has a single replica.
                Map.entry("offsets.topic.replication.factor", "1"),
                // Fewer offsets partitions make the first consumer group join quicker on a single dev broker.
                Map.entry("offsets.topic.num.partitions", "1"),
                Map.entry("transaction.state.log.replication.factor", "1"),
                Map.entry("transaction.state.log.min.isr", "1"),
                // Exactly-once QoS 2 uses transactions: one coordinator partition starts quicker, as for offsets; a
                // killed node's open transaction is aborted within a second of its timeout, not ten.
                Map.entry("transaction.state.log.num.partitions", "1"),
                Map.entry("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000"),
                Map.entry("share.coordinator.state.topic.replication.factor", "1"),
                Map.entry("share.coordinator.state.topic.min.isr", "1"),
                // The compaction buffer defaults to 128 MiB of heap; the child broker runs with a small heap.
                Map.entry("log.cleaner.dedupe.buffer.size", String.valueOf(32 * 1024 * 1024))));
        if (sasl != null) {
            String listener = SaslPlainListener.NAME + "://" + sasl.bootstrapServers();
            String prefix = "listener.name." + SaslPlainListener.NAME.toLowerCase(java.util.Locale.ROOT) + ".";
            props.put("listeners", props.get("listeners") + "," + listener);
            props.put("advertised.listeners", props.get("advertised.listeners") + "," + listener);
            props.put(
                    "listener.security.protocol.map",
                    props.get("listener.security.protocol.map") + "," + SaslPlainListener.NAME + ":SASL_PLAINTEXT");
            props.put("sasl.enabled.mechanisms", "PLAIN");
            props.put(prefix + "sasl.enabled.mechanisms", "PLAIN");
            props.put(prefix + "plain.sasl.jaas.config", sasl.jaasConfig());
            props.putAll(sasl.authorizerProperties());
        }
        return props;
    }

    private void formatIfNeeded() throws IOException {
        if (Files.exists(dataDir.resolve(MetaPropertiesEnsemble.META_PROPERTIES_NAME))) {
            LOG.info("Kafka data directory {} is already formatted", dataDir);
            return;
        }
        String clusterId = Uuid.randomUuid().toString();
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        try (PrintStream print = new PrintStream(output, true, StandardCharsets.UTF_8)) {
            new Formatter()
                    .setPrintStream(print)
                    .setNodeId(NODE_ID)
                    .setClusterId(clusterId)
                    .setControllerListenerName(CONTROLLER_LISTENER)
                    .addDirectory(dataDir.toString())
                    .setMetadataLogDirectory(dataDir.toString())
                    .run();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("cannot format Kafka storage in " + dataDir, e);
        }
        LOG.info("Formatted Kafka storage in {} for cluster {}", dataDir, clusterId);
        LOG.debug(
                "Formatter output: {}", output.toString(StandardCharsets.UTF_8).trim());
    }

    /** The broker is usable once describeCluster lists it: before that it may still be fenced. */
    private void awaitAnswering() {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        Properties adminProps = new Properties();
        adminProps.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        adminProps.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        adminProps.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "5000");
        Exception last = null;
        try (Admin admin = Admin.create(adminProps)) {
            while (System.nanoTime() < deadline) {
                try {
                    var nodes = admin.describeCluster(new DescribeClusterOptions().timeoutMs(5000))
                            .nodes()
                            .get(6, TimeUnit.SECONDS);
                    if (nodes.stream().map(Node::id).anyMatch(id -> id == NODE_ID)) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    last = e;
                }
                TimeUnit.MILLISECONDS.sleep(200);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Kafka", e);
        }
        throw new IllegalStateException(
                "Kafka on " + bootstrapServers() + " did not answer within " + STARTUP_TIMEOUT.toSeconds() + " s",
                last);
    }

    private void stopQuietly() {
        try {
            stop();
        } catch (RuntimeException e) {
            LOG.warn("error while stopping a Kafka broker that failed to start", e);
        }
    }
}
