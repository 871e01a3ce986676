package io.tributary.common.net;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * An immutable set of IP ranges with a lookup that does not walk the list: the ranges are grouped by prefix length,
 * and an address is masked once per distinct length and looked up in that group's hash set. A list of a hundred
 * thousand single addresses costs one hash lookup; a few dozen CIDR sizes cost a few dozen.
 */
public final class IpRangeSet {

    public static final IpRangeSet EMPTY = new IpRangeSet(java.util.List.of());

    /** Per address length (4 or 16 bytes), per prefix length, the masked networks. */
    private final Map<Integer, Map<Integer, Set<ByteBuffer>>> byLength = new HashMap<>();

    private final int size;

    public IpRangeSet(Collection<IpRange> ranges) {
        for (IpRange r : ranges) {
            byLength.computeIfAbsent(r.network().length, l -> new HashMap<>())
                    .computeIfAbsent(r.prefixLength(), p -> new HashSet<>())
                    .add(ByteBuffer.wrap(r.network()));
        }
        this.size = ranges.size();
    }

    public boolean contains(InetAddress address) {
        if (address == null || byLength.isEmpty()) {
            return false;
        }
        byte[] bytes = address.getAddress();
        Map<Integer, Set<ByteBuffer>> groups = byLength.get(bytes.length);
        if (groups == null) {
            return false;
        }
        for (Map.Entry<Integer, Set<ByteBuffer>> group : groups.entrySet()) {
            byte[] masked = IpRange.mask(bytes.clone(), group.getKey());
            if (group.getValue().contains(ByteBuffer.wrap(masked))) {
                return true;
            }
        }
        return false;
    }

    public int size() {
        return size;
    }
}
