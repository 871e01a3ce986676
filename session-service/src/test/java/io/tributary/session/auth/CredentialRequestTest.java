package io.tributary.session.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.session.web.ApiException;
import java.util.List;
import org.junit.jupiter.api.Test;

class CredentialRequestTest {

    private static CredentialRequest request(
            String username, String clientId, String password, List<String> publish, List<String> subscribe) {
        return new CredentialRequest(username, clientId, password, null, publish, subscribe, null, null, null);
    }

    private static void assertBad(CredentialRequest r, boolean passwordRequired, String message) {
        assertThatThrownBy(() -> r.check(passwordRequired))
                .isInstanceOf(ApiException.class)
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(((ApiException) e).status().value()).isEqualTo(400));
    }

    @Test
    void valid_requests_pass() {
        assertThatCode(() -> request("u", null, "pw", List.of("a/%c/#"), List.of("b/%u/+"))
                        .check(true))
                .doesNotThrowAnyException();
        assertThatCode(() -> request(null, "dev-1", "pw", null, null).check(true))
                .doesNotThrowAnyException();
        assertThatCode(() -> request("u", "dev-1", null, null, null).check(false))
                .doesNotThrowAnyException();
    }

    @Test
    void invalid_requests_are_refused_with_a_message() {
        assertBad(request(null, null, "pw", null, null), true, "a username, a clientId, a certificateCn, or several");
        assertBad(request("", null, "pw", null, null), true, "username must not be empty");
        assertBad(request("u", null, null, null, null), true, "password is required");
        assertBad(request("u", null, "", null, null), false, "password must not be empty");
        assertBad(request("u", null, "pw", List.of("a/#/b"), null), true, "publish");
        assertBad(request("u", null, "pw", null, List.of("a/x%c")), true, "whole-level");
        assertBad(request("u", null, "pw", null, List.of("$share/g/a")), true, "$share");
        assertBad(request("u", "a\u0000b", "pw", null, null), true, "U+0000");
    }

    @Test
    void the_password_is_not_printed() {
        assertThat(request("u", null, "hunter2", null, null).toString()).doesNotContain("hunter2");
    }

    @Test
    void remote_ip_is_the_address_without_its_port() {
        assertThat(ClientAddresses.ip("/127.0.0.1:51234")).isEqualTo("127.0.0.1");
        assertThat(ClientAddresses.ip("10.0.0.7:1")).isEqualTo("10.0.0.7");
        assertThat(ClientAddresses.ip("/0:0:0:0:0:0:0:1:5000")).isEqualTo("0:0:0:0:0:0:0:1");
        assertThat(ClientAddresses.ip("localhost/127.0.0.1:80")).isEqualTo("127.0.0.1");
        assertThat(ClientAddresses.ip(null)).isEqualTo("unknown");
    }
}
