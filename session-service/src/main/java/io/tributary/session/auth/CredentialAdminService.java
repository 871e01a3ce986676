package io.tributary.session.auth;

import io.tributary.session.admin.SessionAdminService;
import io.tributary.session.kafka.FeedTopics;
import io.tributary.session.kafka.RecordSender;
import io.tributary.session.takeover.DownlinkCommands;
import io.tributary.session.tenant.TenantStore;
import io.tributary.session.web.AdminPrincipal;
import io.tributary.session.web.ApiException;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Credentials and their ACLs, managed over the admin API. A change takes effect on every node without a restart:
 * the connections that authenticated with the credential are closed (DISCONNECT commands on their nodes' downlink
 * topics, in the same transaction as the change), and they get the new rules when they connect again.
 */
@Service
public class CredentialAdminService {

    private static final Logger log = LoggerFactory.getLogger(CredentialAdminService.class);
    /** PostgreSQL SQLSTATEs of a duplicate identity and of one held by another namespace (V22's constraints). */
    private static final String UNIQUE_VIOLATION = "23505";

    private static final String EXCLUSION_VIOLATION = "23P01";

    private final CredentialStore credentials;
    private final AuthFailureStore failures;
    private final PasswordHasher hasher;
    private final FeedTopics topics;
    private final RecordSender sender;
    private final Clock clock;
    private final TenantStore tenants;

    public CredentialAdminService(
            CredentialStore credentials,
            AuthFailureStore failures,
            PasswordHasher hasher,
            FeedTopics topics,
            RecordSender sender,
            Clock clock,
            TenantStore tenants) {
        this.tenants = tenants;
        this.credentials = credentials;
        this.failures = failures;
        this.hasher = hasher;
        this.topics = topics;
        this.sender = sender;
        this.clock = clock;
    }

    public CredentialView create(CredentialRequest body, AdminPrincipal admin) {
        requireBody(body);
        CredentialRequest request = inScope(body, admin);
        request.check(true);
        requireTenant(request);
        requireIdentitiesFree(request, 0, admin);
        try {
            String hash = request.password() == null ? null : hasher.hash(request.password());
            long id = credentials.insert(values(request, hash), clock.instant());
            log.info("Credential {} created (username {}, client id {})", id, request.username(), request.clientId());
            return get(id, admin);
        } catch (DataIntegrityViolationException e) {
            throw identityRefused(e, request, admin);
        }
    }

    public CredentialView get(long id, AdminPrincipal admin) {
        return CredentialView.of(require(id, admin));
    }

    /** A page of the credentials; for an admin scoped to a tenant, of that tenant's only. */
    public AuthPages.CredentialPage list(int page, int size, AdminPrincipal admin) {
        checkPage(page, size);
        long offset = (long) page * size;
        List<Credential> found = admin.scoped()
                ? credentials.pageOfTenant(admin.tenant(), offset, size)
                : credentials.page(offset, size);
        long total = admin.scoped() ? credentials.countOfTenant(admin.tenant()) : credentials.count();
        return new AuthPages.CredentialPage(
                found.stream().map(CredentialView::of).toList(), page, size, total);
    }

    /**
     * Replaces the credential. Unless only its description changed, its live connections are closed: with MQTT 5
     * reason 0x87 (not authorized) when it is now blocked, else 0x98 (administrative action), so clients reconnect
     * under the new password and ACLs.
     */
    @Transactional
    public CredentialView update(long id, CredentialRequest body, AdminPrincipal admin) {
        requireBody(body);
        CredentialRequest request = inScope(body, admin);
        request.check(false);
        Credential before = require(id, admin);
        requireTenant(request);
        if (request.password() == null && request.certificateCn() == null && before.passwordHash() == null) {
            throw ApiException.badRequest("password is required: the credential has none and no certificateCn");
        }
        requireIdentitiesFree(request, id, admin);
        String hash = request.password() == null ? null : hasher.hash(request.password());
        try {
            // The UPDATE takes the row lock first: a CONNECT holding it (FOR SHARE) commits before we look for
            // live connections, and one coming later sees the new version and is refused.
            credentials.update(id, values(request, hash), clock.instant());
        } catch (DataIntegrityViolationException e) {
            throw identityRefused(e, request, admin);
        }
        boolean accessChanged = hash != null
                || before.blocked() != request.blockedOrFalse()
                || !Objects.equals(before.username(), request.username())
                || !Objects.equals(before.clientId(), request.clientId())
                || !Objects.equals(before.certificateCn(), request.certificateCn())
                || !Objects.equals(before.tenant(), request.tenant())
                || !before.publishAcl().equals(request.publishOrEmpty())
                || !before.subscribeAcl().equals(request.subscribeOrEmpty());
        if (accessChanged) {
            int code =
                    request.blockedOrFalse() ? DownlinkCommands.NOT_AUTHORIZED : DownlinkCommands.ADMINISTRATIVE_ACTION;
            int closed = disconnectLive(id, code);
            log.info(
                    "Credential {} changed (blocked {}): {} live connection(s) closed with reason 0x{}",
                    id,
                    request.blockedOrFalse(),
                    closed,
                    Integer.toHexString(code));
        }
        return get(id, admin);
    }

    /** Deletes the credential and closes its live connections with MQTT 5 reason 0x87 (not authorized). */
    @Transactional
    public void delete(long id, AdminPrincipal admin) {
        require(id, admin);
        if (!credentials.delete(id)) {
            throw ApiException.notFound("no credential " + id);
        }
        int closed = disconnectLive(id, DownlinkCommands.NOT_AUTHORIZED);
        log.info("Credential {} deleted: {} live connection(s) closed", id, closed);
    }

    public AuthPages.FailurePage failures(int page, int size) {
        checkPage(page, size);
        return new AuthPages.FailurePage(failures.page((long) page * size, size), page, size, failures.count());
    }

    private int disconnectLive(long id, int reasonCode) {
        List<CredentialStore.LiveConnection> live = credentials.liveConnections(id);
        List<ProducerRecord<byte[], byte[]>> commands = new ArrayList<>(live.size());
        for (CredentialStore.LiveConnection c : live) {
            topics.ensureDownlink(c.nodeId());
            commands.add(DownlinkCommands.disconnect(c.nodeId(), c.clientId(), c.epoch(), reasonCode));
        }
        // Awaited inside the transaction: if Kafka cannot take the commands, the change is rolled back (503), so
        // a credential is never changed while its old connections live on unnoticed.
        sender.sendAndAwait(commands);
        return live.size();
    }

    private static CredentialStore.Values values(CredentialRequest r, String hash) {
        return new CredentialStore.Values(
                r.username(),
                r.clientId(),
                hash,
                r.blockedOrFalse(),
                r.publishOrEmpty(),
                r.subscribeOrEmpty(),
                r.description(),
                r.certificateCn(),
                r.tenant());
    }

    /** A credential may name only a tenant that exists (400 otherwise: the body is wrong, not the URL). */
    private void requireTenant(CredentialRequest request) {
        if (request.tenant() != null && !tenants.exists(request.tenant())) {
            throw ApiException.badRequest(
                    "no tenant '" + request.tenant() + "': create it first (POST /api/v1/tenants)");
        }
    }

    /** The credential, if the admin may see it: another tenant's is "not found" to a scoped admin, as if absent. */
    private Credential require(long id, AdminPrincipal admin) {
        return credentials
                .find(id)
                .filter(c -> !admin.scoped() || admin.tenant().equals(c.tenant()))
                .orElseThrow(() -> ApiException.notFound("no credential " + id));
    }

    /**
     * The request as the admin may make it: an admin scoped to a tenant creates and keeps credentials in that tenant
     * (a body without a tenant means it), and may not name another (403).
     */
    private static CredentialRequest inScope(CredentialRequest request, AdminPrincipal admin) {
        if (!admin.scoped()) {
            return request;
        }
        if (request.tenant() == null) {
            return request.withTenant(admin.tenant());
        }
        if (!request.tenant().equals(admin.tenant())) {
            throw new ApiException(
                    HttpStatus.FORBIDDEN,
                    "admin '" + admin.username() + "' is scoped to tenant '" + admin.tenant()
                            + "' and cannot put a credential in tenant '" + request.tenant() + "'");
        }
        return request;
    }

    /**
     * An identity (user name, client id, certificate CN) belongs to one namespace (SECURITY.md, "Credential
     * identities"): naming one that credentials of another namespace name is refused. Checked here to tell a cluster
     * admin which; the database's constraints (V22) hold it against races and other writers.
     */
    private void requireIdentitiesFree(CredentialRequest request, long self, AdminPrincipal admin) {
        credentials.otherHolder(values(request, null), self).ifPresent(holder -> {
            if (admin.scoped()) {
                throw identityNotAvailable();
            }
            throw ApiException.conflict(holder.identity() + " is named by credentials of "
                    + (holder.tenant() == null ? "the global namespace" : "tenant '" + holder.tenant() + "'")
                    + ": a user name, client id or certificate CN belongs to one namespace");
        });
    }

    /**
     * What a tenant's admin is told for any identity it may not use, its own tenant's duplicate or another
     * namespace's: one answer, so that it learns nothing about which identities other tenants have.
     */
    private static ApiException identityNotAvailable() {
        return ApiException.conflict(
                "the username, clientId or certificateCn is not available: choose another (a credential names it)");
    }

    /** The 409 for a write the database refused for an identity; any other integrity violation is not ours. */
    private static RuntimeException identityRefused(
            DataIntegrityViolationException e, CredentialRequest r, AdminPrincipal admin) {
        String state = e.getMostSpecificCause() instanceof SQLException sql ? sql.getSQLState() : null;
        if (!UNIQUE_VIOLATION.equals(state) && !EXCLUSION_VIOLATION.equals(state)) {
            return e;
        }
        if (admin.scoped()) {
            return identityNotAvailable();
        }
        return ApiException.conflict(
                EXCLUSION_VIOLATION.equals(state)
                        ? "the username, clientId or certificateCn is named by credentials of another namespace"
                        : "a credential with username " + r.username() + ", clientId " + r.clientId()
                                + " and certificateCn " + r.certificateCn() + " exists already");
    }

    private static void checkPage(int page, int size) {
        if (page < 0) {
            throw ApiException.badRequest("page must not be negative: " + page);
        }
        if (size < 1 || size > SessionAdminService.MAX_PAGE_SIZE) {
            throw ApiException.badRequest("size must be 1.." + SessionAdminService.MAX_PAGE_SIZE + ": " + size);
        }
    }

    private static void requireBody(Object body) {
        if (body == null) {
            throw ApiException.badRequest("request body is required");
        }
    }
}
