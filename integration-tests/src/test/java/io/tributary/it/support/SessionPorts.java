package io.tributary.it.support;

import io.tributary.devstack.net.Ports;
import io.tributary.devstack.process.ServiceProcess;

/**
 * The three ports of one session-service: the admin REST API and console ({@code HTTP_PORT}), the internal API the
 * transport and routing nodes call ({@code INTERNAL_API_PORT}) and the actuator ({@code MANAGEMENT_PORT}).
 */
public record SessionPorts(int http, int internal, int management) {

    static SessionPorts free() {
        return new SessionPorts(Ports.freePort(), Ports.freePort(), Ports.freePort());
    }

    ServiceProcess.Builder applyTo(ServiceProcess.Builder builder) {
        return builder.env("HTTP_PORT", http).env("INTERNAL_API_PORT", internal).env("MANAGEMENT_PORT", management);
    }

    /** The admin REST API and the console. */
    public String apiUrl() {
        return "http://127.0.0.1:" + http;
    }

    /** What a node's {@code SESSION_SERVICE_URL} names. */
    public String internalUrl() {
        return "http://127.0.0.1:" + internal;
    }

    /** Health and metrics. */
    public String managementUrl() {
        return "http://127.0.0.1:" + management;
    }
}
