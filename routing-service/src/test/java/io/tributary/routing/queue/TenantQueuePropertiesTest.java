package io.tributary.routing.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TenantQueuePropertiesTest {

    @Test
    void theInternalTokenIsNeverPrinted() {
        TenantQueueProperties properties =
                new TenantQueueProperties("http://session:8080", "internal-token-0123456789", Duration.ofSeconds(5));
        assertThat(properties.toString())
                .doesNotContain("internal-token-0123456789")
                .contains("http://session:8080");
    }
}
