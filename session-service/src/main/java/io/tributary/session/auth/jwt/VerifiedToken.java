package io.tributary.session.auth.jwt;

import java.time.Instant;
import java.util.List;

/**
 * What a token that passed every check says.
 *
 * @param subject     the identity (the user name claim); {@code %u} of the ACL
 * @param acceptedUntil when the token stops being accepted: its {@code exp} plus the allowed clock skew. The
 *                    connection is closed then
 * @param acl         the ACL the token carries, or null when it carries none (the credential naming the subject
 *                    then supplies it)
 */
public record VerifiedToken(String subject, Instant acceptedUntil, TokenAcl acl) {

    /** Publish and subscribe filter templates from the token, with the same placeholders as credentials. */
    public record TokenAcl(List<String> publish, List<String> subscribe) {

        public TokenAcl {
            publish = List.copyOf(publish);
            subscribe = List.copyOf(subscribe);
        }
    }
}
