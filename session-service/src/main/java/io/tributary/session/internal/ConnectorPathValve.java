package io.tributary.session.internal;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;

/**
 * Keeps the internal API and everything else apart by connector: {@code /internal/**} is answered only on the
 * {@link InternalConnector}, and nothing else there (neither the admin API nor the console), so that whoever reaches
 * one port cannot use what the other serves. Anything else gets 404, as if it did not exist. A Tomcat valve, not a
 * servlet filter: it runs before every filter (the admin token filter, the internal token filter) and sees which
 * connector took the request rather than a port number a proxy header could change. It matches the decoded and
 * normalized path, the one the servlet mapping and Spring MVC dispatch on, so no encoding or dot segment slips a
 * request past it.
 */
final class ConnectorPathValve extends ValveBase {

    private final InternalConnector internal;

    ConnectorPathValve(InternalConnector internal) {
        super(true);
        this.internal = internal;
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        if (isInternalPath(applicationPath(request)) != internal.accepted(request)) {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        getNext().invoke(request, response);
    }

    /** The decoded, normalized path below the context path (empty unless {@code server.servlet.context-path}). */
    static String applicationPath(Request request) {
        String path = request.getDecodedRequestURI();
        String context = request.getContextPath();
        return path != null && context != null && !context.isEmpty() && path.startsWith(context)
                ? path.substring(context.length())
                : path;
    }

    static boolean isInternalPath(String decodedPath) {
        return decodedPath != null && (decodedPath.equals("/internal") || decodedPath.startsWith("/internal/"));
    }
}
