package io.tributary.perf.scenario;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * One MQTT listener to connect to: {@code host:port} (plain TCP) or {@code tls://host:port}. TLS is a property of the
 * listener, not of the client, which is why it lives here: the same scenario runs plain or encrypted by pointing it
 * at another endpoint.
 */
public record Endpoint(String host, int port, boolean tls) {

    public Endpoint {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("endpoint host is empty");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("endpoint port " + port + " is outside 1..65535");
        }
    }

    /** Parses {@code host:port}, or with a scheme: tcp:// or mqtt:// (plain), tls://, ssl:// or mqtts:// (TLS). */
    public static Endpoint parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("endpoint is missing");
        }
        String rest = text.trim();
        boolean tls = false;
        int scheme = rest.indexOf("://");
        if (scheme >= 0) {
            String name = rest.substring(0, scheme).toLowerCase(Locale.ROOT);
            switch (name) {
                case "tcp", "mqtt" -> tls = false;
                case "tls", "ssl", "mqtts" -> tls = true;
                default ->
                    throw new IllegalArgumentException(
                            "endpoint '" + text + "': unknown scheme '" + name + "' (use tcp:// or tls://)");
            }
            rest = rest.substring(scheme + 3);
        }
        int colon = rest.lastIndexOf(':');
        if (colon <= 0 || colon == rest.length() - 1) {
            throw new IllegalArgumentException("endpoint '" + text + "' is not host:port");
        }
        String host = rest.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(rest.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("endpoint '" + text + "': port is not a number");
        }
        return new Endpoint(host, port, tls);
    }

    /**
     * Resolves the host and refuses anything that is not a loopback address: this tool generates load, and load goes
     * to this machine unless the operator says otherwise ({@link #resolve(boolean)}).
     */
    public InetSocketAddress resolveLoopback() {
        return resolve(false);
    }

    /**
     * Resolves the host; a non-loopback address only with {@code allowRemote} (the {@code --allow-remote} option,
     * which the cluster perf Jobs pass: their target is the transport Service).
     */
    public InetSocketAddress resolve(boolean allowRemote) {
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("endpoint " + this + ": cannot resolve " + host, e);
        }
        if (!allowRemote && !address.isLoopbackAddress()) {
            throw new IllegalArgumentException("endpoint " + this + " resolves to " + address.getHostAddress()
                    + ", which is not a loopback address: perf-tests sends load only to this machine"
                    + " (127.0.0.0/8, ::1) unless --allow-remote is given");
        }
        return new InetSocketAddress(address, port);
    }

    @Override
    public String toString() {
        return (tls ? "tls://" : "") + host + ":" + port;
    }
}
