package io.tributary.transport.listener.proxy;

import io.tributary.common.net.IpRange;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The peers a PROXY header is believed from: networks in CIDR notation, IPv4 or IPv6 ({@link IpRange}, the block
 * list's ranges too); none listed means any peer. Parsed from literals only (never a DNS lookup), matched on the
 * event loop once per connection (a few comparisons).
 */
public final class TrustedProxies {

    private final List<IpRange> networks;

    private TrustedProxies(List<IpRange> networks) {
        this.networks = List.copyOf(networks);
    }

    /**
     * @throws IllegalArgumentException naming the first entry that is not an IP literal or a CIDR
     */
    public static TrustedProxies of(List<String> cidrs) {
        List<IpRange> networks = new ArrayList<>();
        for (String cidr : cidrs) {
            networks.add(IpRange.parse(cidr));
        }
        return new TrustedProxies(networks);
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
        for (IpRange network : networks) {
            if (network.contains(candidate)) {
                return true;
            }
        }
        return false;
    }
}
