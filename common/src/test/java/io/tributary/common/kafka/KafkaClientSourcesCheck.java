package io.tributary.common.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every Kafka client of a service is made by {@link KafkaClients}, so the operator's pass-through properties (TLS,
 * SASL) reach all of them; and every Kafka setting the service sets itself is one the pass-through may not set, so an
 * operator's property can never silently change it.
 *
 * <p>Shared through common's test-jar: each service's {@code KafkaClientSourcesTest} extends it and so checks its own
 * {@code src/main/java} (the working directory of a module's tests is the module).
 */
public abstract class KafkaClientSourcesCheck {

    private static final Path MAIN = Path.of("src/main/java");
    private static final Pattern CREATION = Pattern.compile(
            "new\\s+KafkaProducer\\b|new\\s+KafkaConsumer\\b|\\bAdmin(Client)?\\.create\\(|\\bKafkaStreams\\b");
    private static final Pattern SETTING = Pattern.compile(
            "\\b(ProducerConfig|ConsumerConfig|AdminClientConfig|CommonClientConfigs)\\.([A-Z_]+_CONFIG)\\b");

    @Test
    public void no_kafka_client_is_created_outside_the_factory() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path file : sources()) {
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                if (CREATION.matcher(lines.get(i)).find()) {
                    found.add(file + ":" + (i + 1) + ": " + lines.get(i).strip());
                }
            }
        }
        assertThat(found).as("Kafka clients made without KafkaClients").isEmpty();
    }

    @Test
    public void every_kafka_setting_the_service_names_is_reserved_from_the_pass_through() throws Exception {
        Set<String> names = new TreeSet<>();
        for (Path file : sources()) {
            Matcher m = SETTING.matcher(Files.readString(file));
            while (m.find()) {
                Class<?> holder = Class.forName(
                        switch (m.group(1)) {
                            case "ProducerConfig" -> "org.apache.kafka.clients.producer.ProducerConfig";
                            case "ConsumerConfig" -> "org.apache.kafka.clients.consumer.ConsumerConfig";
                            case "AdminClientConfig" -> "org.apache.kafka.clients.admin.AdminClientConfig";
                            default -> "org.apache.kafka.clients.CommonClientConfigs";
                        });
                names.add((String) holder.getField(m.group(2)).get(null));
            }
        }
        assertThat(names).isNotEmpty();
        assertThat(KafkaClientProperties.reserved().keySet()).containsAll(names);
    }

    private static List<Path> sources() throws IOException {
        try (Stream<Path> files = Files.walk(MAIN)) {
            return files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
    }
}
