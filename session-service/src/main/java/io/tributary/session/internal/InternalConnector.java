package io.tributary.session.internal;

import java.util.Collection;
import org.apache.catalina.connector.Connector;
import org.apache.coyote.AbstractProtocol;
import org.apache.coyote.ProtocolHandler;
import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.boot.tomcat.TomcatProtocolHandlerCustomizer;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;

/**
 * The second Tomcat connector, on {@link InternalApiProperties#port()}, that alone serves {@code /internal/**}
 * ({@link ConnectorPathValve}). It is set up like the main connector (address, {@code server.tomcat.*}: the
 * keep-alive settings the transport nodes' long-lived connections need, thread pool), because Spring Boot applies
 * those only to the connector it makes itself. Its own thread pool also keeps admin API load from starving the
 * transport nodes' calls.
 */
public final class InternalConnector {

    private final Connector connector = new Connector(TomcatServletWebServerFactory.DEFAULT_PROTOCOL);

    /** Configures the connector from the factory's settings; call after every other customizer of the factory ran. */
    void configure(TomcatServletWebServerFactory factory, int port) {
        connector.setPort(port);
        if (connector.getProtocolHandler() instanceof AbstractProtocol<?> protocol && factory.getAddress() != null) {
            protocol.setAddress(factory.getAddress());
        }
        if (factory.getUriEncoding() != null) {
            connector.setURIEncoding(factory.getUriEncoding().name());
        }
        applyProtocolHandlerCustomizers(factory.getProtocolHandlerCustomizers(), connector.getProtocolHandler());
        for (TomcatConnectorCustomizer customizer : factory.getConnectorCustomizers()) {
            customizer.customize(connector);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void applyProtocolHandlerCustomizers(
            Collection<TomcatProtocolHandlerCustomizer<?>> customizers, ProtocolHandler handler) {
        for (TomcatProtocolHandlerCustomizer customizer : customizers) {
            customizer.customize(handler);
        }
    }

    /** Whether a request came in on this connector. */
    boolean accepted(org.apache.catalina.connector.Request request) {
        return request.getConnector() == connector;
    }

    Connector connector() {
        return connector;
    }

    /** The port it listens on once the web server started (the chosen one with {@code INTERNAL_API_PORT=0}). */
    public int localPort() {
        return connector.getLocalPort();
    }
}
