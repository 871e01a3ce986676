package io.tributary.session.auth;

import io.tributary.common.session.ConnectApi;
import io.tributary.session.store.StatementPipeline;
import java.util.List;

/**
 * The block list as a CONNECT's authentication consults it first (implemented by blocklist/BlockListService, which
 * refuses with this package's {@link ConnectRefusedException}): an interface, so that the block list depends on
 * authentication and not the other way round as well.
 */
public interface BlockListCheck {

    /** @throws ConnectRefusedException (banned) when an entry matches the CONNECT */
    void check(ConnectApi.ConnectRequest request);

    /**
     * The check of a batch as one read of a statement pipeline, so that it goes to PostgreSQL with the credentials'
     * read in one round trip ({@link ConnectAuthenticator#authenticateAll}).
     *
     * @return once run: per request (same order), its refusal, or null when no entry matches it
     */
    StatementPipeline.Read<List<ConnectRefusedException>> checkAll(List<ConnectApi.ConnectRequest> requests);
}
