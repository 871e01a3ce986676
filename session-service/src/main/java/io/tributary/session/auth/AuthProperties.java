package io.tributary.session.auth;

import io.tributary.common.acl.AclPlaceholders;
import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * MQTT authentication settings, bound from {@code tributary.session.auth.*} (application.yml maps the environment
 * variables).
 *
 * @param anonymous            let a CONNECT that no credential matches and that carries no password in, without ACL
 *                             restrictions. Off by default (production); the quick start and the integration test
 *                             cluster turn it on, and the service says so loudly at start-up
 * @param bcryptCost           log2 of the bcrypt rounds for new hashes; existing hashes keep the cost they were made
 *                             with. 10 costs roughly 50-100 ms of one core per CONNECT with a password
 * @param failureRetention     rows of {@code auth_failures} untouched for this long are purged
 * @param failurePurgeInterval how often that purge runs
 * @param failureMaxRows       at most this many rows of {@code auth_failures} are kept, the most recent; checked every
 *                             minute
 * @param anonymousAcl         what anonymous clients may publish and subscribe to, when anonymous access is on
 * @param failureBackOff       how many failed authentications an address may make before its CONNECTs with a
 *                             password or token are refused unchecked for a while
 */
@Validated
@ConfigurationProperties("tributary.session.auth")
public record AuthProperties(
        boolean anonymous,
        @Min(4) @Max(31) int bcryptCost,
        @NotNull Duration failureRetention,
        @NotNull Duration failurePurgeInterval,
        @Min(1) long failureMaxRows,
        @Valid AnonymousAcl anonymousAcl,
        @Valid @NotNull FailureBackOff failureBackOff) {

    /**
     * Failed authentications (a wrong password, an unknown user name with a password, an invalid token) counted per
     * (identity, source address) and per source address; past either limit within the window, CONNECTs with a
     * password or token from there are refused before anything is checked (no bcrypt spent: a flood of wrong
     * passwords cannot take session-service's CPU, a guesser gets a bounded number of tries) until the oldest failure
     * leaves the window. The identity is the user name, or the client id of a CONNECT without one. Never per identity
     * alone, so a guesser elsewhere cannot lock a device out; certificate CONNECTs are not affected. Per instance.
     *
     * @param maxFailuresPerIdentity failures one address may make for one identity within the window; 0: off
     * @param maxFailuresPerAddress  failures one address may make in all within the window; 0: off (behind a load
     *                               balancer that hides client addresses, or many devices behind one NAT address)
     * @param window                 how long a failure counts
     */
    public record FailureBackOff(
            @Min(0) @Max(1000) int maxFailuresPerIdentity,
            @Min(0) @Max(1_000_000) int maxFailuresPerAddress,
            @NotNull Duration window) {

        @AssertTrue(message = "TRIBUTARY_AUTH_FAILURE_BACK_OFF_WINDOW must be positive")
        public boolean isWindowPositive() {
            return window == null || (!window.isNegative() && !window.isZero());
        }
    }

    /**
     * The ACL of anonymous clients, in the rule format of a credential's ACL: topic filters, with {@code %c} for the
     * client id ({@code %u} matches nothing: an anonymous client's user name is not proven). Not configured (both
     * lists empty): anonymous clients are unrestricted, as before. Configured (either list given): both apply, and
     * an empty one allows nothing.
     *
     * @param publish   filters of the topics anonymous clients may publish to (and name in a will)
     * @param subscribe filters anonymous clients may subscribe within
     */
    public record AnonymousAcl(List<String> publish, List<String> subscribe) {

        public AnonymousAcl {
            publish = publish == null ? List.of() : List.copyOf(publish);
            subscribe = subscribe == null ? List.of() : List.copyOf(subscribe);
        }

        public boolean configured() {
            return !publish.isEmpty() || !subscribe.isEmpty();
        }

        /** Every entry a valid ACL filter; a typo fails the start-up rather than allowing or denying by surprise. */
        @AssertTrue(
                message = "TRIBUTARY_AUTH_ANONYMOUS_ACL_PUBLISH / _SUBSCRIBE: every entry must be a topic filter"
                        + " (placeholders %c, %u, %cn as whole levels)")
        public boolean isEntriesValid() {
            return publish.stream().allMatch(e -> AclPlaceholders.problem(e) == null)
                    && subscribe.stream().allMatch(e -> AclPlaceholders.problem(e) == null);
        }
    }

    /** The anonymous ACL, never null (none configured: both lists empty). */
    public AnonymousAcl anonymousAclOrNone() {
        return anonymousAcl == null ? new AnonymousAcl(List.of(), List.of()) : anonymousAcl;
    }
}
