package io.tributary.session.auth;

/** The source address of a CONNECT as the transport node reports it, reduced to what is counted and matched. */
public final class ClientAddresses {

    private ClientAddresses() {}

    /** "/10.0.0.7:51234", "10.0.0.7:51234", "/0:0:0:0:0:0:0:1:5" → the address without port; "unknown" when absent. */
    public static String ip(String remoteAddress) {
        if (remoteAddress == null || remoteAddress.isBlank() || remoteAddress.equals("null")) {
            return "unknown";
        }
        String a = remoteAddress.startsWith("/") ? remoteAddress.substring(1) : remoteAddress;
        int slash = a.indexOf('/');
        if (slash >= 0) {
            // "host/1.2.3.4:5": InetSocketAddress with a resolved name
            a = a.substring(slash + 1);
        }
        // The transport sends "address:port" (Java prints IPv6 as "0:0:0:0:0:0:0:1:51234"): the port is last.
        int colon = a.lastIndexOf(':');
        if (colon > 0) {
            a = a.substring(0, colon);
        }
        return a.startsWith("[") && a.endsWith("]") ? a.substring(1, a.length() - 1) : a;
    }
}
