package io.tributary.session.internalauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiPredicate;
import org.junit.jupiter.api.Test;

/**
 * The verifier of the internal tokens (issue 34, "one token for every caller"): each role's token gives that role,
 * anything else none, and the check takes the same steps whatever was presented, so its time tells nothing: one
 * comparison per role on every call (no early return on a match), always of two SHA-256 digests (32 bytes, whatever
 * the length sent), with {@link MessageDigest#isEqual}.
 */
class InternalTokensTest {

    private static final String TRANSPORT = "transport-token-0123456789abcdef";
    private static final String ROUTING = "routing-token-0123456789abcdef";

    /** The real comparison, with the arguments of each call written down. */
    private final List<byte[][]> comparisons = new ArrayList<>();

    private final BiPredicate<byte[], byte[]> observed = (expected, presented) -> {
        comparisons.add(new byte[][] {expected.clone(), presented.clone()});
        return MessageDigest.isEqual(expected, presented);
    };

    private final InternalTokens tokens =
            new InternalTokens(Map.of(InternalRole.TRANSPORT, TRANSPORT, InternalRole.ROUTING, ROUTING), observed);

    @Test
    void eachRolesTokenGivesThatRoleAndNothingElseGivesOne() {
        assertThat(tokens.roleOf(TRANSPORT)).contains(InternalRole.TRANSPORT);
        assertThat(tokens.roleOf(ROUTING)).contains(InternalRole.ROUTING);
        for (String wrong : List.of(
                "",
                "transport",
                TRANSPORT.substring(0, TRANSPORT.length() - 1),
                TRANSPORT + "x",
                "x" + TRANSPORT.substring(1),
                TRANSPORT.substring(0, TRANSPORT.length() - 1) + "g",
                TRANSPORT.toUpperCase(java.util.Locale.ROOT),
                "Bearer " + TRANSPORT)) {
            assertThat(tokens.roleOf(wrong)).as(wrong).isEmpty();
        }
        assertThat(tokens.roleOf(null)).isEmpty();
    }

    @Test
    void everyCallComparesEveryRolesDigestOnceWhateverWasPresented() {
        for (String presented : List.of(
                TRANSPORT, ROUTING, "wrong-token-0123456789abcdef", "", "x".repeat(10_000), TRANSPORT + ROUTING)) {
            comparisons.clear();
            Optional<InternalRole> role = tokens.roleOf(presented);
            assertThat(comparisons)
                    .as("comparisons for a %d-character token (%s)", presented.length(), role)
                    .hasSize(InternalRole.values().length);
            for (byte[][] comparison : comparisons) {
                assertThat(comparison[0]).as("a role's digest").hasSize(32);
                assertThat(comparison[1]).as("the presented token's digest").hasSize(32);
                assertThat(comparison[1]).isEqualTo(InternalTokens.digest(presented));
            }
            assertThat(comparisons.stream().map(c -> c[0]).toList())
                    .as("each role's digest, once")
                    .usingElementComparator((a, b) -> MessageDigest.isEqual(a, b) ? 0 : 1)
                    .containsExactlyInAnyOrder(InternalTokens.digest(TRANSPORT), InternalTokens.digest(ROUTING));
        }
    }

    @Test
    void oneTokenForTwoRolesOrARoleWithoutTokenIsRefused() {
        assertThatThrownBy(() ->
                        new InternalTokens(Map.of(InternalRole.TRANSPORT, TRANSPORT, InternalRole.ROUTING, TRANSPORT)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("are the same token")
                .hasMessageNotContaining(TRANSPORT);
        assertThatThrownBy(() -> new InternalTokens(Map.of(InternalRole.TRANSPORT, TRANSPORT)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no internal token for the routing role");
    }

    @Test
    void theTokensAreNeverPrinted() {
        assertThat(tokens.toString())
                .doesNotContain(TRANSPORT)
                .doesNotContain(ROUTING)
                .contains("TRANSPORT");
    }
}
