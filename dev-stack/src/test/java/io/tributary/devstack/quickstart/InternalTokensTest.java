package io.tributary.devstack.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quick start's internal tokens (issue 34, "one token for every caller"): one per calling role, generated per data
 * directory and kept for its owner only, and each service started with its own only, session-service with both.
 */
class InternalTokensTest {

    @TempDir
    Path dir;

    @Test
    void aNewDataDirectoryGetsTwoRandomTokensKeptForItsOwnerAndFoundAgainOnRestart() throws Exception {
        Path data = dir.resolve("data");
        InternalTokens first = InternalTokens.of(Map.of(), data);

        assertThat(first.transport()).matches("[0-9a-f]{48}");
        assertThat(first.routing()).matches("[0-9a-f]{48}").isNotEqualTo(first.transport());
        for (String file : new String[] {InternalTokens.TRANSPORT_FILE, InternalTokens.ROUTING_FILE}) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(data.resolve(file))))
                    .as(file)
                    .isEqualTo("rw-------");
        }
        assertThat(InternalTokens.of(Map.of(), data)).isEqualTo(first);
        assertThat(InternalTokens.of(Map.of(), dir.resolve("other")).transport())
                .isNotEqualTo(first.transport());
        assertThat(first.toString()).doesNotContain(first.transport()).doesNotContain(first.routing());
    }

    @Test
    void theEnvironmentDecidesWhenItNamesATokenAndNothingIsWrittenForIt() {
        Path data = dir.resolve("data");
        InternalTokens given =
                InternalTokens.of(Map.of("TRIBUTARY_INTERNAL_TRANSPORT_TOKEN", "transport-token-of-mine"), data);

        assertThat(given.transport()).isEqualTo("transport-token-of-mine");
        assertThat(data.resolve(InternalTokens.TRANSPORT_FILE)).doesNotExist();
        assertThat(data.resolve(InternalTokens.ROUTING_FILE)).exists();
    }

    @Test
    void eachServiceGetsItsOwnTokenAndSessionServiceBoth() {
        InternalTokens tokens = new InternalTokens("transport-token-0123456789", "routing-token-0123456789");

        assertThat(tokens.environmentOf(QuickstartStack.SESSION))
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "TRIBUTARY_INTERNAL_TRANSPORT_TOKEN", "transport-token-0123456789",
                        "TRIBUTARY_INTERNAL_ROUTING_TOKEN", "routing-token-0123456789"));
        assertThat(tokens.environmentOf(QuickstartStack.TRANSPORT))
                .containsExactly(Map.entry("TRIBUTARY_INTERNAL_TOKEN", "transport-token-0123456789"));
        assertThat(tokens.environmentOf(QuickstartStack.ROUTING))
                .containsExactly(Map.entry("TRIBUTARY_INTERNAL_TOKEN", "routing-token-0123456789"));
    }
}
