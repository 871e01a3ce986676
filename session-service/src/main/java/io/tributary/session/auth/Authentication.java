package io.tributary.session.auth;

import io.tributary.common.session.SessionApi;

/**
 * Who a CONNECT turned out to be.
 *
 * @param credentialId the matching credential, null for an anonymous connection
 * @param version      the credential's version that was checked; the CONNECT transaction re-checks it
 * @param acl          resolved ACL for the connection, null when unrestricted (anonymous)
 */
public record Authentication(Long credentialId, long version, SessionApi.Acl acl) {

    public static final Authentication ANONYMOUS = new Authentication(null, 0, null);

    public boolean anonymous() {
        return credentialId == null;
    }
}
