package io.tributary.session.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.mock.env.MockEnvironment;

/**
 * The internal API's connector goes on the main web server, on a port of its own, with its valves, and a shared port
 * is refused.
 */
class InternalConnectorCustomizerTest {

    private static TomcatServletWebServerFactory customized(int httpPort, int internalPort, String managementPort) {
        MockEnvironment environment = new MockEnvironment();
        if (managementPort != null) {
            environment.setProperty("management.server.port", managementPort);
        }
        TomcatServletWebServerFactory factory = new TomcatServletWebServerFactory(httpPort);
        new InternalConnectorCustomizer(
                        new InternalConnector(),
                        new InternalApiProperties(
                                "transport-token-0123456789", "routing-token-0123456789", internalPort),
                        environment,
                        null)
                .customize(factory);
        return factory;
    }

    @Test
    void addsTheConnectorOnItsPortAndTheValvesThatKeepThePathsApartAndServeTheBatches() {
        TomcatServletWebServerFactory factory = customized(8080, 8086, "8085");

        assertThat(factory.getAdditionalConnectors())
                .singleElement()
                .satisfies(c -> assertThat(c.getPort()).isEqualTo(8086));
        // The path check first: a batch path reached on the REST port is 404 before the batch valve could serve it.
        assertThat(factory.getContextValves())
                .hasExactlyElementsOfTypes(ConnectorPathValve.class, InternalBatchValve.class);
    }

    @Test
    void theRestOrManagementPortIsRefused() {
        assertThatThrownBy(() -> customized(8080, 8080, "8085"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("INTERNAL_API_PORT (tributary.internal.port) 8080 is HTTP_PORT too");
        assertThatThrownBy(() -> customized(8080, 8085, "8085"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is MANAGEMENT_PORT too");
        assertThat(customized(0, 0, "0").getAdditionalConnectors()).hasSize(1);
    }

    @Test
    void onlyTheInternalApiPathsAreInternal() {
        assertThat(ConnectorPathValve.isInternalPath("/internal/v1/sessions/connect"))
                .isTrue();
        assertThat(ConnectorPathValve.isInternalPath("/internal")).isTrue();
        assertThat(ConnectorPathValve.isInternalPath("/internals")).isFalse();
        assertThat(ConnectorPathValve.isInternalPath("/api/v1/internal/x")).isFalse();
        assertThat(ConnectorPathValve.isInternalPath(null)).isFalse();
    }
}
