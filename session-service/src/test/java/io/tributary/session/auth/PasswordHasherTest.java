package io.tributary.session.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PasswordHasherTest {

    private final PasswordHasher hasher = new PasswordHasher(4);

    @Test
    void hashes_are_salted_bcrypt_and_verify_only_the_right_password() {
        String a = hasher.hash("correct horse");
        String b = hasher.hash("correct horse");
        assertThat(a).startsWith("$2a$04$").doesNotContain("correct").isNotEqualTo(b);
        assertThat(hasher.matches("correct horse".getBytes(StandardCharsets.UTF_8), a))
                .isTrue();
        assertThat(hasher.matches("correct horse".getBytes(StandardCharsets.UTF_8), b))
                .isTrue();
        assertThat(hasher.matches("correct hors".getBytes(StandardCharsets.UTF_8), a))
                .isFalse();
        assertThat(hasher.matches(null, a)).isFalse();
        assertThat(hasher.matches(new byte[0], a)).isFalse();
    }

    @Test
    void passwords_bcrypt_would_truncate_are_refused_when_set_and_never_match() {
        String longest = "x".repeat(PasswordHasher.MAX_PASSWORD_BYTES);
        String hash = hasher.hash(longest);
        assertThat(hasher.matches(longest.getBytes(StandardCharsets.UTF_8), hash))
                .isTrue();
        assertThat(hasher.matches((longest + "y").getBytes(StandardCharsets.UTF_8), hash))
                .isFalse();
        assertThatThrownBy(() -> hasher.hash(longest + "y")).hasMessageContaining("72 bytes");
        assertThat(PasswordHasher.problem("")).contains("empty");
        // Multi-byte characters count as their UTF-8 bytes.
        assertThat(PasswordHasher.problem("é".repeat(37))).contains("72 bytes");
    }

    @Test
    void an_unusable_stored_hash_is_a_mismatch_not_an_error() {
        assertThat(hasher.matches("pw".getBytes(StandardCharsets.UTF_8), "not-a-bcrypt-hash"))
                .isFalse();
    }
}
