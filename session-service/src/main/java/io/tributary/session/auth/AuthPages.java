package io.tributary.session.auth;

import java.util.List;

/** Paged answers of the auth admin API, shaped like the sessions page. */
public final class AuthPages {

    private AuthPages() {}

    /** @param total number of credentials over all pages */
    public record CredentialPage(List<CredentialView> items, int page, int size, long total) {}

    /** @param total number of (client id, IP) rows over all pages */
    public record FailurePage(List<AuthFailureStore.AuthFailure> items, int page, int size, long total) {}
}
