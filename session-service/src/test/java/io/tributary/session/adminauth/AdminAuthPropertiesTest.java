package io.tributary.session.adminauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class AdminAuthPropertiesTest {

    @Test
    void passwordsAreNeverPrinted() {
        AdminAuthProperties properties = new AdminAuthProperties(
                "admin",
                "first-admin-password",
                Duration.ofHours(12),
                new AdminAuthProperties.Login(5, 20, Duration.ofMinutes(15)));
        assertThat(properties.toString()).doesNotContain("first-admin-password").contains("admin");
        assertThat(new AdminTokenController.TokenRequest("admin", "typed-password").toString())
                .doesNotContain("typed-password")
                .contains("admin");
    }
}
