package io.tributary.session.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.session.internalauth.InternalRole;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.mock.env.MockEnvironment;

/**
 * session-service's internal tokens as the environment gives them, through the real application.yml: one per
 * calling role, both required, at least 16 characters and different, so a start without them fails with a message
 * naming the variable; the former shared {@code TRIBUTARY_INTERNAL_TOKEN} alone no longer starts it.
 */
@ExtendWith(OutputCaptureExtension.class)
class InternalApiPropertiesTest {

    private static final String TRANSPORT = "transport-token-0123456789";
    private static final String ROUTING = "routing-token-0123456789";

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(InternalApiProperties.class)
    static class Properties {}

    /** A context with application.yml and {@code env} as the process environment. */
    private static ApplicationContextRunner withEnvironment(Map<String, String> env) {
        return new ApplicationContextRunner()
                .withInitializer(context -> {
                    try {
                        var sources = context.getEnvironment().getPropertySources();
                        new YamlPropertySourceLoader()
                                .load("application.yml", new ClassPathResource("application.yml"))
                                .forEach(sources::addLast);
                        sources.addFirst(new SystemEnvironmentPropertySource(
                                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new HashMap<>(env)));
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                })
                .withUserConfiguration(Properties.class);
    }

    @Test
    void eachRoleGetsTheTokenOfItsVariableAndNoneIsPrinted() {
        withEnvironment(Map.of(
                        "TRIBUTARY_INTERNAL_TRANSPORT_TOKEN", TRANSPORT,
                        "TRIBUTARY_INTERNAL_ROUTING_TOKEN", ROUTING,
                        "INTERNAL_API_PORT", "9086"))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    InternalApiProperties properties = context.getBean(InternalApiProperties.class);
                    assertThat(properties.tokens())
                            .containsExactlyInAnyOrderEntriesOf(
                                    Map.of(InternalRole.TRANSPORT, TRANSPORT, InternalRole.ROUTING, ROUTING));
                    assertThat(properties.port()).isEqualTo(9086);
                    assertThat(properties.toString())
                            .doesNotContain(TRANSPORT)
                            .doesNotContain(ROUTING)
                            .contains("9086");
                });
    }

    @Test
    void aMissingOrShortTokenStopsTheStartNamingItsVariable() {
        withEnvironment(Map.of("TRIBUTARY_INTERNAL_ROUTING_TOKEN", ROUTING))
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining(
                                "TRIBUTARY_INTERNAL_TRANSPORT_TOKEN (the transport nodes' internal token"));
        withEnvironment(Map.of(
                        "TRIBUTARY_INTERNAL_TRANSPORT_TOKEN", TRANSPORT, "TRIBUTARY_INTERNAL_ROUTING_TOKEN", "short"))
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("TRIBUTARY_INTERNAL_ROUTING_TOKEN (the routing nodes' internal token")
                        .hasMessageNotContaining(TRANSPORT));
    }

    @Test
    void oneTokenForBothRolesStopsTheStart() {
        withEnvironment(Map.of(
                        "TRIBUTARY_INTERNAL_TRANSPORT_TOKEN", TRANSPORT, "TRIBUTARY_INTERNAL_ROUTING_TOKEN", TRANSPORT))
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("must differ: each role needs its own token")
                        .hasMessageNotContaining(TRANSPORT));
    }

    @Test
    void theFormerSharedTokenAloneNoLongerStartsIt() {
        withEnvironment(Map.of("TRIBUTARY_INTERNAL_TOKEN", TRANSPORT))
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("TRIBUTARY_INTERNAL_TRANSPORT_TOKEN")
                        .hasMessageContaining("no longer reads the one shared TRIBUTARY_INTERNAL_TOKEN"));
    }

    /** Left in a deployment after the upgrade, the former shared token is said to be unused, once, at start. */
    @Test
    void theFormerSharedTokenLeftSetBesideTheNewOnesIsWarnedAbout(CapturedOutput output) {
        InternalApiProperties properties = new InternalApiProperties(TRANSPORT, ROUTING, 0);
        String warning = "TRIBUTARY_INTERNAL_TOKEN (tributary.internal.token) is set, but session-service no longer"
                + " reads it";
        new InternalApiConfiguration().internalTokens(properties, new MockEnvironment());
        assertThat(output.getAll()).doesNotContain(warning);
        new InternalApiConfiguration()
                .internalTokens(properties, new MockEnvironment().withProperty("tributary.internal.token", TRANSPORT));
        assertThat(output.getAll()).contains(warning).doesNotContain(TRANSPORT);
    }
}
