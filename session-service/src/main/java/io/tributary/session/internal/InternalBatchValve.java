package io.tributary.session.internal;

import jakarta.servlet.ServletException;
import java.io.IOException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Serves the internal batch endpoints ({@link InternalBatchEndpoints}) of requests that came in on the {@link
 * InternalConnector}, before the servlet filters and Spring MVC; every other request goes on down the pipeline. After
 * {@link ConnectorPathValve}, so the path has been checked against the connector already. The endpoints are looked
 * up on the first request rather than when the web server is built, so the web server factory does not pull the
 * session store and its dependencies into being early.
 */
final class InternalBatchValve extends ValveBase {

    private final InternalConnector internal;
    private final ObjectProvider<InternalBatchEndpoints> provider;
    private volatile InternalBatchEndpoints endpoints;

    InternalBatchValve(InternalConnector internal, ObjectProvider<InternalBatchEndpoints> provider) {
        super(true);
        this.internal = internal;
        this.provider = provider;
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        if (internal.accepted(request)) {
            InternalBatchEndpoints served = endpoints();
            InternalBatchEndpoints.Endpoint<?> endpoint = served.find(ConnectorPathValve.applicationPath(request));
            if (endpoint != null) {
                served.serve(endpoint, request, response);
                return;
            }
        }
        getNext().invoke(request, response);
    }

    private InternalBatchEndpoints endpoints() {
        InternalBatchEndpoints found = endpoints;
        if (found == null) {
            found = provider.getObject();
            endpoints = found;
        }
        return found;
    }
}
