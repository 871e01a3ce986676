import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;
import org.apache.kafka.clients.admin.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.*;
import org.apache.kafka.common.serialization.*;
import io.tributary.common.kafka.PublishRecordFormat;
import io.tributary.devstack.kafka.EmbeddedKafka;

/**
 * Producer compression measurement (docs/benchmarks-history.md, section 12): the same publish-topic records (transport's headers,
 * ~90-byte JSON telemetry payloads, 5,000 device topics) produced with each compression.type at a fixed rate to an
 * embedded broker (linger.ms 1, acks=all, 12 partitions), then read back. Prints bytes on the wire and in the log,
 * the producer's compression ratio and average batch, and process CPU (producer and broker share the JVM).
 * Usage: java -cp CLASSPATH CompressionMeasure.java RECORDS RATE_PER_SECOND  (-Didem=false: no idempotence)
 */
public class CompressionMeasure {
    static com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    public static void main(String[] a) throws Exception {
        int n = Integer.parseInt(a[0]);
        int rate = Integer.parseInt(a[1]); // 0 = as fast as possible
        Path dir = Files.createTempDirectory("cmp");
        try (EmbeddedKafka kafka = EmbeddedKafka.start(dir);
             Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            List<String> types = List.of("none", "lz4", "snappy", "zstd", "gzip");
            Random rnd = new Random(1);
            List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String dev = String.format("dev-%05d", rnd.nextInt(5000));
                String json = String.format(Locale.ROOT,
                        "{\"device\":\"%s\",\"ts\":%d,\"temp\":%.2f,\"hum\":%.1f,\"bat\":%.2f,\"status\":\"ok\"}",
                        dev, 1764000000000L + i * 7L, 15 + rnd.nextDouble() * 15, 30 + rnd.nextDouble() * 40,
                        3.5 + rnd.nextDouble() * 0.7);
                records.add(PublishRecordFormat.toRecord("devices/" + dev + "/telemetry",
                        json.getBytes(StandardCharsets.UTF_8), 1, false, dev, 5, "node-1", null,
                        System.currentTimeMillis()));
            }
            System.out.printf("%d records, payload ~%d B, rate %s%n", n, records.get(0).value().length,
                    rate == 0 ? "unthrottled" : rate + "/s");
            for (int round = 0; round < 2; round++) { // round 0 warms the JIT, round 1 is reported
                for (String type : types) {
                    String topic = "cmp-" + type + "-" + round;
                    admin.createTopics(List.of(new NewTopic(topic, 12, (short) 1))).all().get();
                    // Produce only once every partition has a leader: a produce racing the creation got
                    // NOT_LEADER_OR_FOLLOWER and then OUT_OF_ORDER_SEQUENCE_NUMBER from the idempotent producer.
                    while (!led(admin, topic)) {
                        Thread.sleep(50);
                    }
                    Thread.sleep(500);
                    Map<String, Object> pc = new HashMap<>(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                            "acks", "all", "enable.idempotence", Boolean.parseBoolean(System.getProperty("idem", "true")), "linger.ms", 1, "compression.type", type, "delivery.timeout.ms", 600000,
                            "key.serializer", ByteArraySerializer.class, "value.serializer", ByteArraySerializer.class));
                    long cpu0 = os.getProcessCpuTime();
                    long t0 = System.nanoTime();
                    double outBytes, ratio, batch;
                    try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(pc)) {
                        List<Future<RecordMetadata>> fs = new ArrayList<>(n);
                        long next = System.nanoTime();
                        for (ProducerRecord<byte[], byte[]> r : records) {
                            fs.add(p.send(new ProducerRecord<>(topic, null, r.key(), r.value(), r.headers())));
                            if (rate > 0) {
                                next += 1_000_000_000L / rate;
                                long w = next - System.nanoTime();
                                if (w > 0) TimeUnit.NANOSECONDS.sleep(w);
                            }
                        }
                        for (Future<RecordMetadata> f : fs) f.get();
                        outBytes = metric(p.metrics(), "producer-metrics", "outgoing-byte-total");
                        ratio = metric(p.metrics(), "producer-metrics", "compression-rate-avg");
                        batch = metric(p.metrics(), "producer-metrics", "batch-size-avg");
                    }
                    double produceS = (System.nanoTime() - t0) / 1e9;
                    double produceCpu = (os.getProcessCpuTime() - cpu0) / 1e9;
                    long cpu1 = os.getProcessCpuTime();
                    long t1 = System.nanoTime();
                    int read = 0;
                    try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(Map.of("bootstrap.servers",
                            kafka.bootstrapServers(), "key.deserializer", ByteArrayDeserializer.class,
                            "value.deserializer", ByteArrayDeserializer.class))) {
                        List<TopicPartition> tps = new ArrayList<>();
                        for (int i = 0; i < 12; i++) tps.add(new TopicPartition(topic, i));
                        c.assign(tps);
                        c.seekToBeginning(tps);
                        while (read < n) read += c.poll(Duration.ofMillis(500)).count();
                    }
                    double consumeCpu = (os.getProcessCpuTime() - cpu1) / 1e9;
                    double consumeS = (System.nanoTime() - t1) / 1e9;
                    long disk = 0;
                    var dirs = admin.describeLogDirs(List.of(1)).allDescriptions().get().get(1);
                    for (var d : dirs.values())
                        for (var e : d.replicaInfos().entrySet())
                            if (e.getKey().topic().equals(topic)) disk += e.getValue().size();
                    if (round == 1) {
                        System.out.printf(Locale.ROOT,
                                "%-7s produce %6.2f s (%7.0f msg/s) cpu %6.2f s | wire %7.1f MB ratio %.2f batch %6.0f B"
                                + " | log %7.1f MB | consume %5.2f s cpu %5.2f s%n",
                                type, produceS, n / produceS, produceCpu, outBytes / 1e6, ratio, batch, disk / 1e6,
                                consumeS, consumeCpu);
                    }
                }
            }
        }
    }

    static boolean led(Admin admin, String topic) {
        try {
            return admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().stream()
                    .allMatch(p -> p.leader() != null);
        } catch (Exception e) {
            return false; // not in the broker's metadata yet
        }
    }

    static double metric(Map<MetricName, ? extends Metric> m, String group, String name) {
        return m.entrySet().stream().filter(e -> e.getKey().group().equals(group) && e.getKey().name().equals(name))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).findFirst().orElse(Double.NaN);
    }
}
