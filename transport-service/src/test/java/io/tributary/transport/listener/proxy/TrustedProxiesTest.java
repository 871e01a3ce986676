package io.tributary.transport.listener.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The trusted proxy networks: CIDR matching on the bit, literals only, and refused settings at start-up. */
class TrustedProxiesTest {

    private static InetAddress ip(String literal) throws Exception {
        return InetAddress.getByName(literal);
    }

    @Test
    void matches_networks_on_the_prefix_bit() throws Exception {
        TrustedProxies trusted = TrustedProxies.of(List.of("10.0.0.0/22", "192.0.2.7", "2001:db8:1::/48"));
        assertThat(trusted.trusts(ip("10.0.3.255"))).isTrue();
        assertThat(trusted.trusts(ip("10.0.4.0"))).isFalse();
        assertThat(trusted.trusts(ip("192.0.2.7"))).isTrue();
        assertThat(trusted.trusts(ip("192.0.2.8"))).isFalse();
        assertThat(trusted.trusts(ip("2001:db8:1:ffff::1"))).isTrue();
        assertThat(trusted.trusts(ip("2001:db8:2::1"))).isFalse();
        assertThat(trusted.trusts(null)).isFalse();
    }

    @Test
    void no_network_trusts_any_peer() throws Exception {
        assertThat(TrustedProxies.of(List.of()).trusts(ip("203.0.113.1"))).isTrue();
        assertThat(TrustedProxies.of(List.of("0.0.0.0/0")).trusts(ip("203.0.113.1")))
                .isTrue();
    }

    @Test
    void refuses_host_names_and_bad_prefixes() {
        assertThatThrownBy(() -> TrustedProxies.of(List.of("lb.example.com")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TrustedProxies.of(List.of("10.0.0.0/33")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TrustedProxies.of(List.of("10.0.0.0/x"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void bad_settings_stop_the_node_at_start_up() {
        Validator validator = Validation.buildDefaultValidatorFactory().getValidator();
        assertThat(validator.validate(ProxyProtocolProperties.off())).isEmpty();
        assertThat(validator.validate(
                        new ProxyProtocolProperties(true, List.of(" 10.0.0.0/8", ""), Duration.ofSeconds(5))))
                .isEmpty();
        assertThat(validator.validate(new ProxyProtocolProperties(true, List.of("nlb"), Duration.ofSeconds(5))))
                .extracting(ConstraintViolation::getMessage)
                .singleElement()
                .asString()
                .contains("TRIBUTARY_PROXY_PROTOCOL_TRUSTED");
        assertThat(validator.validate(new ProxyProtocolProperties(true, List.of(), Duration.ZERO)))
                .extracting(ConstraintViolation::getMessage)
                .singleElement()
                .asString()
                .contains("TRIBUTARY_PROXY_PROTOCOL_TIMEOUT");
    }
}
