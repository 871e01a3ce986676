package io.tributary.deploy.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The reading rule of {@link ConfigurationDocTest}, on rows shaped like those of docs/configuration.md. */
class ConfigurationRowTest {

    @Test
    void a_row_of_two_variables_gives_each_its_part_of_the_default() {
        ConfigurationRow row =
                ConfigurationRow.parse(7, "| `MQTT_HOST` / `MQTT_PORT` | transport | `0.0.0.0` / 1883 | listener |");

        assertThat(row.variables()).containsExactly("MQTT_HOST", "MQTT_PORT");
        assertThat(row.services()).containsExactly("transport-service");
        assertThat(row.defaultOf("MQTT_HOST").literalFor("transport-service")).contains("0.0.0.0");
        assertThat(row.defaultOf("MQTT_PORT").literalFor("transport-service")).contains("1883");
    }

    @Test
    void a_slash_in_parentheses_or_backticks_does_not_split_the_default() {
        ConfigurationRow row = ConfigurationRow.parse(
                1, "| `A` / `B` | session | empty (`admin` / `tributary-dev` in `bin/quickstart`) | x |");

        assertThat(row.defaultsAligned()).isTrue();
        assertThat(row.defaultOf("B").literalFor("session-service")).contains("");
        assertThat(ConfigurationRow.parse(1, "| `U` | session | `jdbc:postgresql://h:5432/t` | x |")
                        .defaultOf("U")
                        .literalFor("session-service"))
                .contains("jdbc:postgresql://h:5432/t");
    }

    @Test
    void all_means_the_three_services_and_other_words_are_not_services() {
        assertThat(ConfigurationRow.parse(1, "| `A` | all | 1 | x |").services())
                .containsExactly("routing-service", "session-service", "transport-service");
        assertThat(ConfigurationRow.parse(1, "| `A` | session, routing (through `REDIS_URL`), quickstart | 1 | x |")
                        .services())
                .containsExactly("routing-service", "session-service");
    }

    @Test
    void a_default_per_service_is_read_per_service() {
        DocumentedDefault ports = DocumentedDefault.parse("session 8080, transport 8081, routing 8082");
        assertThat(ports.literalFor("routing-service")).contains("8082");
        assertThat(ports.literalFor("session-service")).contains("8080");

        DocumentedDefault url = DocumentedDefault.parse("transport `http://localhost:8080`, routing none");
        assertThat(url.literalFor("transport-service")).contains("http://localhost:8080");
        assertThat(url.literalFor("routing-service")).contains("");
        assertThat(url.literalFor("session-service")).isEmpty();
    }

    @Test
    void only_a_leading_literal_is_compared_and_remarks_after_it_are_not() {
        assertThat(DocumentedDefault.literal("0 (= 2 x cores)")).contains("0");
        assertThat(DocumentedDefault.literal("5000 ms")).contains("5000");
        assertThat(DocumentedDefault.literal("`16MB`")).contains("16MB");
        assertThat(DocumentedDefault.literal("`false` (`true` in `docker-compose.yml`)"))
                .contains("false");
        assertThat(DocumentedDefault.literal("`none`")).contains("none");
        assertThat(DocumentedDefault.literal("none (required)")).contains("");
        assertThat(DocumentedDefault.literal("empty (TLS off)")).contains("");
        assertThat(DocumentedDefault.literal("the `redis-server` on the `PATH`"))
                .isEqualTo(Optional.empty());
    }

    @Test
    void lines_that_are_not_variable_rows_are_skipped() {
        assertThat(ConfigurationRow.parse(1, "| variable | services | default | meaning |"))
                .isNull();
        assertThat(ConfigurationRow.parse(2, "|---|---|---|---|")).isNull();
        assertThat(ConfigurationRow.parse(3, "Every setting is typed")).isNull();
    }
}
