package io.tributary.kafka.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** The pass-through as an operator sets it: environment variables, or properties in a file. */
class KafkaPassThroughBindingTest {

    private static StandardEnvironment environment(Map<String, Object> variables) {
        StandardEnvironment environment = new StandardEnvironment();
        // In place of the process's environment, under its name: Spring maps only that source's names relaxedly.
        environment
                .getPropertySources()
                .replace(
                        StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        new SystemEnvironmentPropertySource(
                                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
        return environment;
    }

    @Test
    void environment_variables_become_kafka_property_names_with_dots() {
        String jaas = "software.amazon.msk.auth.iam.IAMLoginModule required;";
        StandardEnvironment env = environment(Map.of(
                "TRIBUTARY_KAFKA_PROPERTIES_SECURITY_PROTOCOL",
                "SASL_SSL",
                "TRIBUTARY_KAFKA_PROPERTIES_SASL_MECHANISM",
                "AWS_MSK_IAM",
                "TRIBUTARY_KAFKA_PROPERTIES_SASL_JAAS_CONFIG",
                jaas,
                "TRIBUTARY_KAFKA_PROPERTIES_SASL_CLIENT_CALLBACK_HANDLER_CLASS",
                "software.amazon.msk.auth.iam.IAMClientCallbackHandler",
                "KAFKA_BOOTSTRAP_SERVERS",
                "b-1:9098"));

        assertThat(KafkaClientsFromEnvironment.passThrough(env).properties())
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "security.protocol", "SASL_SSL",
                        "sasl.mechanism", "AWS_MSK_IAM",
                        "sasl.jaas.config", jaas,
                        "sasl.client.callback.handler.class", "software.amazon.msk.auth.iam.IAMClientCallbackHandler"));
    }

    @Test
    void properties_in_a_file_bind_the_same_way() {
        StandardEnvironment env = new StandardEnvironment();
        env.getPropertySources()
                .addFirst(new MapPropertySource(
                        "file",
                        Map.of(
                                "tributary.kafka.properties.security.protocol", "SSL",
                                "tributary.kafka.properties[ssl.truststore.location]", "/etc/kafka/ca.jks")));

        assertThat(KafkaClientsFromEnvironment.passThrough(env).properties())
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of("security.protocol", "SSL", "ssl.truststore.location", "/etc/kafka/ca.jks"));
    }

    @Test
    void none_given_is_plaintext_as_before_and_a_reserved_key_fails_the_start() {
        assertThat(KafkaClientsFromEnvironment.passThrough(environment(Map.of()))
                        .properties())
                .isEmpty();
        assertThatThrownBy(() -> KafkaClientsFromEnvironment.passThrough(
                        environment(Map.of("TRIBUTARY_KAFKA_PROPERTIES_ENABLE_IDEMPOTENCE", "false"))))
                .hasMessageContaining("enable.idempotence");
    }
}
