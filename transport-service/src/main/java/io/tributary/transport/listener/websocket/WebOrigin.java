package io.tributary.transport.listener.websocket;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A web origin as a browser sends it in the {@code Origin} header (RFC 6454 section 6.2): {@code scheme://host} with
 * an optional {@code :port}, nothing else. Held in a normal form so equal origins compare equal: scheme and host in
 * lower case, an IPv6 host in brackets in its canonical form, and the port given, the scheme's default filled in
 * (80 for http and ws, 443 for https and wss; -1 for other schemes without one).
 */
record WebOrigin(String scheme, String host, int port) {

    private static final Pattern SCHEME = Pattern.compile("[a-z][a-z0-9+.-]*");
    private static final Pattern NAME = Pattern.compile("[a-z0-9._-]+");
    private static final Pattern IPV6 = Pattern.compile("[0-9a-f:.]+");
    private static final Pattern PORT = Pattern.compile(":\\d{1,5}");

    /** @throws IllegalArgumentException when {@code text} is not a serialised origin (e.g. {@code null}, a URL) */
    static WebOrigin parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("no origin");
        }
        String s = text.toLowerCase(Locale.ROOT);
        int separator = s.indexOf("://");
        if (separator < 0 || !SCHEME.matcher(s.substring(0, separator)).matches()) {
            throw new IllegalArgumentException("'" + text + "' is not scheme://host[:port]");
        }
        String scheme = s.substring(0, separator);
        HostPort authority = authority(s.substring(separator + 3), defaultPort(scheme), text);
        return new WebOrigin(scheme, authority.host(), authority.port());
    }

    /**
     * Whether a request's {@code Host} header names this origin's host and port. A Host without a port means the
     * default port of the scheme the client used, which the node cannot see behind a proxy that ends TLS: it is
     * taken to be this origin's (http with ws, https with wss), so only host and port are compared, not the scheme.
     */
    boolean hasHostAndPortOf(String hostHeader) {
        if (hostHeader == null) {
            return false;
        }
        try {
            return new HostPort(host, port)
                    .equals(authority(hostHeader.toLowerCase(Locale.ROOT), defaultPort(scheme), hostHeader));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return scheme + "://" + host + (port < 0 ? "" : ":" + port);
    }

    private static int defaultPort(String scheme) {
        return switch (scheme) {
            case "http", "ws" -> 80;
            case "https", "wss" -> 443;
            default -> -1;
        };
    }

    private record HostPort(String host, int port) {}

    /** {@code host[:port]} (lower case already) as its normal host and its port, the default when none is given. */
    private static HostPort authority(String authority, int defaultPort, String text) {
        String host;
        String rest;
        if (authority.startsWith("[")) {
            int close = authority.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("unclosed IPv6 address in '" + text + "'");
            }
            host = ipv6(authority.substring(1, close), text);
            rest = authority.substring(close + 1);
        } else {
            int colon = authority.indexOf(':');
            host = colon < 0 ? authority : authority.substring(0, colon);
            rest = colon < 0 ? "" : authority.substring(colon);
            if (!NAME.matcher(host).matches()) {
                throw new IllegalArgumentException("bad host in '" + text + "' (no path, user or query allowed)");
            }
        }
        int port = defaultPort;
        if (!rest.isEmpty()) {
            if (!PORT.matcher(rest).matches() || Integer.parseInt(rest.substring(1)) > 65535) {
                throw new IllegalArgumentException("bad port in '" + text + "' (no path allowed)");
            }
            port = Integer.parseInt(rest.substring(1));
        }
        return new HostPort(host, port);
    }

    /** An IPv6 literal's canonical form in brackets; never a DNS lookup (only hex digits, colons and dots pass). */
    private static String ipv6(String literal, String text) {
        if (!IPV6.matcher(literal).matches() || literal.indexOf(':') < 0) {
            throw new IllegalArgumentException("bad IPv6 address in '" + text + "'");
        }
        try {
            InetAddress address = InetAddress.getByName(literal);
            return address instanceof Inet6Address ? "[" + address.getHostAddress() + "]" : address.getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("bad IPv6 address in '" + text + "'");
        }
    }
}
