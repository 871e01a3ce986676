package io.tributary.routing.testkit;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;

/**
 * A real single-node Kafka (KRaft, broker and controller in one) inside the test JVM, on ephemeral loopback ports,
 * with its data in a temporary directory removed at {@link #close()}.
 */
public final class EmbeddedKafka implements AutoCloseable {

    private static final String CONTROLLER_LISTENER = "CONTROLLER";

    private final Path dataDir;
    private final KafkaRaftServer server;
    private final String bootstrapServers;

    private EmbeddedKafka(Path dataDir, KafkaRaftServer server, String bootstrapServers) {
        this.dataDir = dataDir;
        this.server = server;
        this.bootstrapServers = bootstrapServers;
    }

    public static EmbeddedKafka start() throws Exception {
        return start(freePort());
    }

    /** Starts a broker listening on {@code brokerPort}, e.g. one that clients were told about before it existed. */
    public static EmbeddedKafka start(int brokerPort) throws Exception {
        Path dataDir = Files.createTempDirectory("tributary-routing-kafka");
        int controllerPort = freePort();
        Map<String, Object> props = new HashMap<>();
        props.put("process.roles", "broker,controller");
        props.put("node.id", "1");
        props.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        props.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + "," + CONTROLLER_LISTENER + "://127.0.0.1:"
                + controllerPort);
        props.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        props.put("controller.listener.names", CONTROLLER_LISTENER);
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
        props.put("inter.broker.listener.name", "PLAINTEXT");
        props.put("log.dirs", dataDir.toString());
        props.put("auto.create.topics.enable", "false");
        props.put("num.partitions", "1");
        props.put("offsets.topic.replication.factor", "1");
        props.put("offsets.topic.num.partitions", "1");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("share.coordinator.state.topic.replication.factor", "1");
        props.put("share.coordinator.state.topic.min.isr", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        props.put("log.cleaner.dedupe.buffer.size", Integer.toString(2 * 1024 * 1024));
        KafkaConfig config = new KafkaConfig(props);

        new Formatter()
                .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                .setNodeId(1)
                .setClusterId(Uuid.randomUuid().toString())
                .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
                .setControllerListenerName(CONTROLLER_LISTENER)
                .setMetadataLogDirectory(dataDir.toString())
                .addDirectory(dataDir.toString())
                .run();

        KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
        server.startup();
        return new EmbeddedKafka(dataDir, server, "127.0.0.1:" + brokerPort);
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
        try (Stream<Path> files = Files.walk(dataDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A loopback port free right now (another process could take it before it is used: good enough for tests). */
    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }
}
