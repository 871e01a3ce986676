package io.tributary.common.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class IpRangeTest {

    private static InetAddress ip(String literal) throws Exception {
        return InetAddress.getByName(literal);
    }

    @Test
    void cidr_ranges_contain_their_addresses_only() throws Exception {
        IpRange ten = IpRange.parse("10.0.0.0/8");
        assertThat(ten.contains(ip("10.255.1.2"))).isTrue();
        assertThat(ten.contains(ip("11.0.0.1"))).isFalse();
        assertThat(ten.contains(ip("::1"))).as("IPv6 is never in an IPv4 range").isFalse();
        IpRange v6 = IpRange.parse("2001:db8::/32");
        assertThat(v6.contains(ip("2001:db8:ffff::1"))).isTrue();
        assertThat(v6.contains(ip("2001:db9::1"))).isFalse();
        assertThat(IpRange.parse("0.0.0.0/0").contains(ip("203.0.113.9"))).isTrue();
    }

    @Test
    void a_bare_address_is_a_range_of_one_and_host_bits_are_cleared() throws Exception {
        IpRange one = IpRange.parse("192.0.2.7");
        assertThat(one.prefixLength()).isEqualTo(32);
        assertThat(one.contains(ip("192.0.2.7"))).isTrue();
        assertThat(one.contains(ip("192.0.2.8"))).isFalse();
        assertThat(IpRange.parse("10.1.2.3/8")).isEqualTo(IpRange.parse("10.0.0.0/8"));
        assertThat(IpRange.parse("10.1.2.3/8").toString()).isEqualTo("10.0.0.0/8");
        assertThat(IpRange.parse("192.0.2.0/25").contains(ip("192.0.2.127"))).isTrue();
        assertThat(IpRange.parse("192.0.2.0/25").contains(ip("192.0.2.128"))).isFalse();
    }

    @Test
    void names_and_bad_prefixes_are_refused() {
        assertThatThrownBy(() -> IpRange.parse("localhost")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IpRange.parse("example.com/8")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IpRange.parse("10.0.0.0/33")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IpRange.parse("10.0.0.0/x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IpRange.parse("::1/129")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IpRange.parse("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IpRange.parse("1.2.3")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void a_set_looks_up_by_prefix_length_groups() throws Exception {
        List<IpRange> ranges = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            ranges.add(IpRange.parse("198.51." + (i / 256) + "." + (i % 256)));
        }
        ranges.add(IpRange.parse("10.0.0.0/8"));
        ranges.add(IpRange.parse("2001:db8::/48"));
        IpRangeSet set = new IpRangeSet(ranges);
        assertThat(set.size()).isEqualTo(1002);
        assertThat(set.contains(ip("198.51.3.231"))).isTrue();
        assertThat(set.contains(ip("198.51.3.232")))
                .as("1000 addresses end at .3.231")
                .isFalse();
        assertThat(set.contains(ip("10.9.9.9"))).isTrue();
        assertThat(set.contains(ip("2001:db8:1::5"))).isFalse();
        assertThat(set.contains(ip("2001:db8::5"))).isTrue();
        assertThat(set.contains(ip("::ffff:10.1.1.1")))
                .as("IPv4-mapped IPv6 is the IPv4 address")
                .isTrue();
        assertThat(IpRangeSet.EMPTY.contains(ip("10.0.0.1"))).isFalse();
    }
}
