package io.tributary.session.support;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;

/**
 * A real single-node Kafka broker (KRaft, combined broker + controller) running in the test JVM on ephemeral ports,
 * with its log directory in a temporary folder that is deleted on close.
 */
public final class KraftBroker implements AutoCloseable {

    private final Path logDir;
    private final int brokerPort;
    private final KafkaRaftServer server;

    private KraftBroker(Path logDir, int brokerPort, KafkaRaftServer server) {
        this.logDir = logDir;
        this.brokerPort = brokerPort;
        this.server = server;
    }

    public static KraftBroker start() throws Exception {
        Path logDir = Files.createTempDirectory("session-kraft");
        int brokerPort = freePort();
        int controllerPort = freePort();
        Properties props = new Properties();
        props.put("process.roles", "broker,controller");
        props.put("node.id", "1");
        props.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        props.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        props.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        props.put("controller.listener.names", "CONTROLLER");
        props.put("inter.broker.listener.name", "PLAINTEXT");
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        props.put("log.dirs", logDir.toString());
        props.put("num.partitions", "1");
        props.put("offsets.topic.replication.factor", "1");
        props.put("offsets.topic.num.partitions", "1");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("share.coordinator.state.topic.replication.factor", "1");
        props.put("share.coordinator.state.topic.min.isr", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        // Like a production cluster: topics exist only when someone creates them (the service must ensure them).
        props.put("auto.create.topics.enable", "false");
        KafkaConfig config = new KafkaConfig(props, false);

        Formatter formatter = new Formatter()
                .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                .setClusterId(Uuid.randomUuid().toString())
                .setNodeId(1)
                .setControllerListenerName("CONTROLLER")
                .setMetadataLogDirectory(config.metadataLogDir())
                .setDirectories(List.of(logDir.toString()))
                .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION);
        formatter.run();

        KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
        server.startup();
        return new KraftBroker(logDir, brokerPort, server);
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + brokerPort;
    }

    @Override
    public void close() throws IOException {
        server.shutdown();
        server.awaitShutdown();
        try (Stream<Path> files = Files.walk(logDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }
}
