package io.tributary.session.internal;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * Adds the {@link InternalConnector}, its {@link ConnectorPathValve} and its {@link InternalBatchValve} (in that
 * order) to the main web server. Runs last, so the
 * connector customizers Spring Boot registers from {@code server.*} are there to be applied to it too. Not applied
 * to the management server (Spring Boot's child context on {@code MANAGEMENT_PORT}), which takes none of the main
 * context's customizers but its own.
 */
final class InternalConnectorCustomizer implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

    private final InternalConnector connector;
    private final InternalApiProperties properties;
    private final Environment environment;
    private final ObjectProvider<InternalBatchEndpoints> batchEndpoints;

    InternalConnectorCustomizer(
            InternalConnector connector,
            InternalApiProperties properties,
            Environment environment,
            ObjectProvider<InternalBatchEndpoints> batchEndpoints) {
        this.batchEndpoints = batchEndpoints;
        this.connector = connector;
        this.properties = properties;
        this.environment = environment;
    }

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        int port = properties.port();
        Integer management = environment.getProperty("management.server.port", Integer.class);
        // Port 0 picks a free port for each connector, so only fixed ports can collide: say which, rather than
        // leave it to a bind error.
        if (port != 0 && port == factory.getPort()) {
            throw new IllegalStateException("INTERNAL_API_PORT (tributary.internal.port) " + port
                    + " is HTTP_PORT too: the internal API needs a port of its own");
        }
        if (port != 0 && management != null && port == management) {
            throw new IllegalStateException("INTERNAL_API_PORT (tributary.internal.port) " + port
                    + " is MANAGEMENT_PORT too: the internal API needs a port of its own");
        }
        connector.configure(factory, port);
        factory.addAdditionalConnectors(connector.connector());
        factory.addContextValves(new ConnectorPathValve(connector), new InternalBatchValve(connector, batchEndpoints));
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
