package io.tributary.transport.listener.proxy;

import io.netty.util.NetUtil;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The peers a PROXY header is believed from: networks in CIDR notation, IPv4 or IPv6; none listed means any peer.
 * Parsed from literals only (never a DNS lookup), matched bit by bit on the event loop (a few comparisons).
 */
public final class TrustedProxies {

    private record Network(byte[] address, int prefix) {

        boolean contains(byte[] candidate) {
            if (candidate.length != address.length) {
                return false;
            }
            int full = prefix / 8;
            for (int i = 0; i < full; i++) {
                if (candidate[i] != address[i]) {
                    return false;
                }
            }
            int rest = prefix % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xFF << (8 - rest)) & 0xFF;
            return (candidate[full] & mask) == (address[full] & mask);
        }
    }

    private final List<Network> networks;

    private TrustedProxies(List<Network> networks) {
        this.networks = List.copyOf(networks);
    }

    /**
     * @throws IllegalArgumentException naming the first entry that is not an IP literal or a CIDR
     */
    public static TrustedProxies of(List<String> cidrs) {
        List<Network> networks = new ArrayList<>();
        for (String cidr : cidrs) {
            networks.add(parse(cidr.trim()));
        }
        return new TrustedProxies(networks);
    }

    private static Network parse(String cidr) {
        int slash = cidr.indexOf('/');
        String host = slash < 0 ? cidr : cidr.substring(0, slash);
        byte[] address = NetUtil.createByteArrayFromIpAddressString(host);
        if (address == null) {
            throw new IllegalArgumentException("not an IP address or CIDR: '" + cidr + "'");
        }
        int bits = address.length * 8;
        int prefix = bits;
        if (slash >= 0) {
            try {
                prefix = Integer.parseInt(cidr.substring(slash + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not an IP address or CIDR: '" + cidr + "'", e);
            }
            if (prefix < 0 || prefix > bits) {
                throw new IllegalArgumentException("prefix out of range in '" + cidr + "'");
            }
        }
        return new Network(address, prefix);
    }

    /** Whether any peer is trusted (no network listed). */
    public boolean any() {
        return networks.isEmpty();
    }

    /** Whether a header from this peer is believed; an unknown peer (null) only when any peer is. */
    public boolean trusts(InetAddress peer) {
        if (networks.isEmpty()) {
            return true;
        }
        if (peer == null) {
            return false;
        }
        byte[] candidate = peer.getAddress();
        for (Network network : networks) {
            if (network.contains(candidate)) {
                return true;
            }
        }
        return false;
    }
}
