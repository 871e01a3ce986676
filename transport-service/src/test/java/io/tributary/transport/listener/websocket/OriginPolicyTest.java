package io.tributary.transport.listener.websocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which origins may open MQTT over WebSocket: no header, same-origin, the list, *, and what is malformed. */
class OriginPolicyTest {

    private static final OriginPolicy SAME_ORIGIN = OriginPolicy.sameOrigin();

    private static OriginPolicy listing(String... origins) {
        return OriginPolicy.of(List.of(origins));
    }

    @Test
    void an_upgrade_without_origin_is_accepted_whatever_the_policy() {
        assertThat(SAME_ORIGIN.allows(null, "broker:8083")).isTrue();
        assertThat(SAME_ORIGIN.allows(null, null)).isTrue();
        assertThat(listing("https://console.example.com").allows(null, "broker:8083"))
                .isTrue();
    }

    @Test
    void by_default_only_a_same_origin_page_is_accepted() {
        assertThat(SAME_ORIGIN.allows("http://broker.lan:8083", "broker.lan:8083"))
                .isTrue();
        assertThat(SAME_ORIGIN.allows("HTTP://Broker.LAN:8083", "broker.lan:8083"))
                .isTrue();
        assertThat(SAME_ORIGIN.allows("http://broker.lan:8080", "broker.lan:8083"))
                .isFalse();
        assertThat(SAME_ORIGIN.allows("http://evil.example:8083", "broker.lan:8083"))
                .isFalse();
        assertThat(SAME_ORIGIN.allows("http://broker.lan:8083", null)).isFalse();
        assertThat(SAME_ORIGIN.allows("http://broker.lan:8083", "broker.lan:8083/x"))
                .isFalse();
    }

    @Test
    void same_origin_fills_in_the_default_port_of_the_origins_scheme() {
        // Behind a reverse proxy on the default port the Host has no port: http means 80, https 443.
        assertThat(SAME_ORIGIN.allows("https://broker.example.com", "broker.example.com"))
                .isTrue();
        assertThat(SAME_ORIGIN.allows("https://broker.example.com", "broker.example.com:443"))
                .isTrue();
        assertThat(SAME_ORIGIN.allows("http://broker.example.com", "broker.example.com:80"))
                .isTrue();
        assertThat(SAME_ORIGIN.allows("http://broker.example.com", "broker.example.com:443"))
                .isFalse();
        assertThat(SAME_ORIGIN.allows("https://broker.example.com:8443", "broker.example.com"))
                .isFalse();
    }

    @Test
    void a_listed_origin_is_accepted_in_normal_form_and_nothing_else() {
        OriginPolicy policy = listing("https://console.example.com", "http://127.0.0.1:8080");
        assertThat(policy.allows("https://console.example.com", "broker:8083")).isTrue();
        assertThat(policy.allows("HTTPS://CONSOLE.example.COM:443", "broker:8083"))
                .isTrue();
        assertThat(policy.allows("http://127.0.0.1:8080", "127.0.0.1:8083")).isTrue();
        assertThat(policy.allows("http://console.example.com", "broker:8083")).isFalse();
        assertThat(policy.allows("https://console.example.com:8443", "broker:8083"))
                .isFalse();
        assertThat(policy.allows("http://localhost:8080", "localhost:8083")).isFalse();
        assertThat(policy.allows("https://evil.console.example.com", "broker:8083"))
                .isFalse();
    }

    @Test
    void a_list_ignores_the_host_header_so_dns_rebinding_is_refused() {
        // The attacker's name resolves to the broker: the browser sends its own name as Origin and as Host.
        assertThat(SAME_ORIGIN.allows("http://rebind.evil.example:8083", "rebind.evil.example:8083"))
                .isTrue();
        assertThat(listing("http://127.0.0.1:8080")
                        .allows("http://rebind.evil.example:8083", "rebind.evil.example:8083"))
                .isFalse();
    }

    @Test
    void default_ports_are_normalised_for_http_https_ws_and_wss() {
        assertThat(listing("http://a.example:80").allows("http://a.example", null))
                .isTrue();
        assertThat(listing("https://a.example").allows("https://a.example:443", null))
                .isTrue();
        assertThat(listing("ws://a.example").allows("ws://a.example:80", null)).isTrue();
        assertThat(listing("wss://a.example:443").allows("wss://a.example", null))
                .isTrue();
        assertThat(listing("https://a.example").allows("http://a.example:443", null))
                .isFalse();
        assertThat(listing("http://a.example").allows("ws://a.example", null)).isFalse();
    }

    @Test
    void ipv6_hosts_compare_in_canonical_form() {
        OriginPolicy policy = listing("http://[::1]:8080", "https://[2001:DB8::1]");
        assertThat(policy.allows("http://[0:0:0:0:0:0:0:1]:8080", null)).isTrue();
        assertThat(policy.allows("http://[::1]:8080", null)).isTrue();
        assertThat(policy.allows("https://[2001:db8:0::1]:443", null)).isTrue();
        assertThat(policy.allows("http://[::2]:8080", null)).isFalse();
        assertThat(SAME_ORIGIN.allows("http://[::1]:8083", "[::1]:8083")).isTrue();
        assertThat(SAME_ORIGIN.allows("http://[::1]:8083", "[::2]:8083")).isFalse();
        assertThat(SAME_ORIGIN.allows("http://[::1]:8083", "::1:8083")).isFalse();
    }

    @Test
    void malformed_origins_are_refused() {
        OriginPolicy policy = listing("http://127.0.0.1:8080");
        for (String origin : List.of(
                "null",
                "",
                "garbage",
                "127.0.0.1:8080",
                "http://",
                "http://127.0.0.1:8080/",
                "http://127.0.0.1:8080/console",
                "http://user@127.0.0.1:8080",
                "http://127.0.0.1:99999",
                "http://127.0.0.1:",
                "http://127.0.0.1:8080?x",
                "http://[::1",
                "http://[zz::1]:8080",
                "http ://127.0.0.1:8080",
                "http://127.0.0.1:8080\r\nX: y")) {
            assertThat(policy.allows(origin, "127.0.0.1:8080")).as(origin).isFalse();
            assertThat(SAME_ORIGIN.allows(origin, "127.0.0.1:8080")).as(origin).isFalse();
        }
    }

    @Test
    void star_accepts_every_origin_even_a_malformed_one() {
        OriginPolicy any = listing("*");
        assertThat(any.allows("https://anything.example", "broker:8083")).isTrue();
        assertThat(any.allows("null", "broker:8083")).isTrue();
    }

    @Test
    void a_malformed_entry_or_a_star_among_others_is_refused() {
        for (String entry : List.of("console.example.com", "https://console.example.com/", "null", "http://a b")) {
            assertThatThrownBy(() -> listing(entry)).as(entry).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> listing("*", "https://console.example.com"))
                .isInstanceOf(IllegalArgumentException.class);
        // Schemes without a default port are kept without one (a browser extension's origin, say).
        assertThat(listing("chrome-extension://abcdefghijklmnop").allows("chrome-extension://abcdefghijklmnop", null))
                .isTrue();
    }

    @Test
    void bad_settings_stop_the_node_at_start_up() {
        Validator validator = Validation.buildDefaultValidatorFactory().getValidator();
        assertThat(validator.validate(WebSocketOriginProperties.sameOrigin())).isEmpty();
        assertThat(validator.validate(new WebSocketOriginProperties(null))).isEmpty();
        WebSocketOriginProperties trimmed =
                new WebSocketOriginProperties(List.of(" http://127.0.0.1:8080", "", "http://localhost:8080 "));
        assertThat(validator.validate(trimmed)).isEmpty();
        assertThat(trimmed.allowedOrigins()).containsExactly("http://127.0.0.1:8080", "http://localhost:8080");
        assertThat(validator.validate(new WebSocketOriginProperties(List.of("*"))))
                .isEmpty();
        assertThat(validator.validate(new WebSocketOriginProperties(List.of("localhost:8080"))))
                .extracting(ConstraintViolation::getMessage)
                .singleElement()
                .asString()
                .contains("TRIBUTARY_WEBSOCKET_ALLOWED_ORIGINS");
    }
}
