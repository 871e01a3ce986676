package io.tributary.session.auth;

import io.tributary.common.session.ConnectApi;
import java.time.Instant;

/**
 * Who a CONNECT turned out to be.
 *
 * @param credentialId the matching credential, null for an anonymous connection and for a token whose subject no
 *                     credential names
 * @param version      the credential's version that was checked; the CONNECT transaction re-checks it
 * @param acl          resolved ACL for the connection, null when unrestricted (anonymous)
 * @param expiresAt    when the authentication stops being valid (a token's expiry plus the allowed clock skew): the
 *                     transport node closes the connection then. Null: it does not expire
 * @param tenant       the credential's tenant, whose topic namespace the connection uses; null: the global one
 */
public record Authentication(Long credentialId, long version, ConnectApi.Acl acl, Instant expiresAt, String tenant) {

    public static final Authentication ANONYMOUS = new Authentication(null, 0, null, null, null);

    public Authentication(Long credentialId, long version, ConnectApi.Acl acl, Instant expiresAt) {
        this(credentialId, version, acl, expiresAt, null);
    }
}
