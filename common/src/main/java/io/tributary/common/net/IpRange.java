package io.tributary.common.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * An IPv4 or IPv6 address range in CIDR notation ({@code 10.0.0.0/8}, {@code 2001:db8::/32}); a bare address is a
 * range of one ({@code /32}, {@code /128}). Parsing accepts only literals, never a host name, so it cannot trigger a
 * DNS lookup. Host bits below the prefix are cleared, as PostgreSQL's {@code cidr} requires, so
 * {@code 10.1.2.3/8} and {@code 10.0.0.0/8} are the same range.
 */
public record IpRange(byte[] network, int prefixLength) {

    public IpRange {
        network = mask(network.clone(), prefixLength);
    }

    /** @throws IllegalArgumentException when {@code text} is not an address or CIDR range literal */
    public static IpRange parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty IP range");
        }
        String s = text.strip();
        int slash = s.indexOf('/');
        byte[] address = literal(slash < 0 ? s : s.substring(0, slash));
        int bits = address.length * 8;
        int prefix = bits;
        if (slash >= 0) {
            try {
                prefix = Integer.parseInt(s.substring(slash + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad prefix length in '" + text + "'");
            }
            if (prefix < 0 || prefix > bits) {
                throw new IllegalArgumentException("prefix length of '" + text + "' must be 0.." + bits);
            }
        }
        return new IpRange(address, prefix);
    }

    /** The address bytes of an IP literal; no name resolution. */
    private static byte[] literal(String s) {
        boolean v6 = s.indexOf(':') >= 0;
        boolean v4 = !v6 && s.matches("\\d{1,3}(\\.\\d{1,3}){3}");
        if (!v4 && !(v6 && s.matches("[0-9A-Fa-f:.]+"))) {
            throw new IllegalArgumentException("'" + s + "' is not an IP address");
        }
        try {
            // With only digits, dots, hex and colons, InetAddress parses a literal and never asks DNS.
            return InetAddress.getByName(s).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("'" + s + "' is not an IP address");
        }
    }

    public boolean contains(InetAddress address) {
        return address != null && contains(address.getAddress());
    }

    public boolean contains(byte[] address) {
        if (address.length != network.length) {
            return false;
        }
        return Arrays.equals(mask(address.clone(), prefixLength), network);
    }

    static byte[] mask(byte[] address, int prefixLength) {
        for (int i = 0; i < address.length; i++) {
            int keep = Math.max(0, Math.min(8, prefixLength - i * 8));
            address[i] &= (byte) (0xFF << (8 - keep));
        }
        return address;
    }

    /** CIDR notation, as PostgreSQL prints it ({@code 10.0.0.0/8}, {@code 2001:db8:0:0:0:0:0:0/32}). */
    @Override
    public String toString() {
        try {
            return InetAddress.getByAddress(network).getHostAddress() + "/" + prefixLength;
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IpRange r && r.prefixLength == prefixLength && Arrays.equals(r.network, network);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(network) + prefixLength;
    }
}
