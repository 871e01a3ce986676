package io.tributary.session.auth;

import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.common.acl.AclPlaceholders;
import io.tributary.common.acl.TopicPermissions;
import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.ConnectApi.RefusalReason;
import io.tributary.common.session.WarmUpNamespace;
import io.tributary.session.auth.jwt.JwtVerifier;
import io.tributary.session.auth.jwt.TokenRefusedException;
import io.tributary.session.auth.jwt.VerifiedToken;
import io.tributary.session.store.StatementPipeline;
import java.time.Clock;
import java.time.Instant;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;

/**
 * Authentication and ACL resolution of a CONNECT, before its session transaction: bcrypt takes tens of milliseconds
 * and must not hold a session row lock or a pooled connection. Runs on a servlet thread of session-service, inside
 * the transport node's asynchronous CONNECT call, so no event loop ever waits for it.
 *
 * <p>Rules: the credential {@link CredentialFit} chooses must be given its password; a CONNECT whose client id or user
 * name a credential names but that none fits is refused; one that no credential names is anonymous when it carries no
 * password, and anonymous access is allowed only when configured. A password for which no credential fits is a bad
 * user name or password, also with anonymous access on.
 *
 * <p>With JWT authentication on, a password that is a JWT is verified as one ({@link JwtVerifier}) instead, and never
 * tried as a password: its subject is the identity, its ACL comes from the token or else from the credential that
 * names the subject (a blocked credential refuses the token: the way to revoke tokens before they expire).
 */
@Service
public class ConnectAuthenticator {

    private final CredentialStore credentials;
    private final BlockListCheck blockList;
    private final PasswordHasher hasher;
    private final AuthProperties properties;
    private final AuthCounters counters;
    private final ConnectBackOff backOff;
    private final ConnectRefusalLog refusals;
    private final JdbcTemplate jdbc;
    /** Empty when JWT authentication is off. */
    private final Optional<JwtVerifier> jwt;

    public ConnectAuthenticator(
            CredentialStore credentials,
            AuthFailureStore failures,
            PasswordHasher hasher,
            AuthProperties properties,
            Clock clock,
            MeterRegistry registry,
            Optional<JwtVerifier> jwt,
            BlockListCheck blockList,
            ConnectBackOff backOff,
            JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        this.jwt = jwt;
        this.backOff = backOff;
        this.blockList = blockList;
        this.credentials = credentials;
        this.hasher = hasher;
        this.properties = properties;
        this.counters = new AuthCounters(registry, jwt.isPresent());
        this.refusals = new ConnectRefusalLog(failures, clock, counters);
    }

    /** @throws ConnectRefusedException when the CONNECT must be refused (already logged, counted and recorded) */
    public Authentication authenticate(ConnectApi.ConnectRequest request) {
        return authenticate(request, () -> blockList.check(request), lookupFor(List.of(request)));
    }

    /**
     * {@link #authenticate} for a batch of CONNECTs: the block list and the credentials they could match are read
     * in one query each, not one per CONNECT.
     *
     * @return per request, in order
     */
    public List<AuthOutcome> authenticateAll(List<ConnectApi.ConnectRequest> requests) {
        // The block list's and the credentials' reads in one round trip: on a quiet machine each round trip to an idle
        // PostgreSQL backend costs more than the statements (docs/benchmarks-history.md, issue 33).
        StatementPipeline.Read<List<ConnectRefusedException>> bans = blockList.checkAll(requests);
        StatementPipeline.Read<CredentialCandidates> candidates = credentialsRead(requests);
        StatementPipeline.run(jdbc, bans, candidates);
        List<ConnectRefusedException> banned = bans.result();
        CredentialLookup lookup = lookupFor(requests, candidates.result());
        java.util.stream.IntStream indexes = java.util.stream.IntStream.range(0, requests.size());
        if (requests.stream().anyMatch(r -> r.password() != null)) {
            // Password hashes cost tens of milliseconds of CPU each: spread over the cores, not one after the other.
            indexes = indexes.parallel();
        }
        return indexes.mapToObj(i -> {
                    ConnectRefusedException ban = banned.get(i);
                    try {
                        return (AuthOutcome) new AuthOutcome.Admitted(authenticate(
                                requests.get(i),
                                () -> {
                                    if (ban != null) {
                                        throw ban;
                                    }
                                },
                                lookup));
                    } catch (ConnectRefusedException e) {
                        return new AuthOutcome.Refused(e);
                    }
                })
                .toList();
    }

    /** The credentials that can decide a CONNECT of this user name, client id and CN ({@link CredentialFit}). */
    @FunctionalInterface
    private interface CredentialLookup {
        CredentialCandidates of(String username, String clientId, String certificateCn);
    }

    /**
     * The credentials of these CONNECTs, read in one go. A token's subject is known once it is verified: its
     * credentials are read then, unless it is a user name of the batch (the CONNECT's user name, when sent, must
     * equal it).
     */
    private CredentialLookup lookupFor(List<ConnectApi.ConnectRequest> requests) {
        StatementPipeline.Read<CredentialCandidates> candidates = credentialsRead(requests);
        StatementPipeline.run(jdbc, candidates);
        return lookupFor(requests, candidates.result());
    }

    private StatementPipeline.Read<CredentialCandidates> credentialsRead(List<ConnectApi.ConnectRequest> requests) {
        return credentials.candidatesRead(
                requests.stream().map(ConnectApi.ConnectRequest::username).toList(),
                requests.stream().map(ConnectApi.ConnectRequest::clientId).toList(),
                requests.stream()
                        .map(ConnectApi.ConnectRequest::certificateCommonName)
                        .toList());
    }

    private CredentialLookup lookupFor(List<ConnectApi.ConnectRequest> requests, CredentialCandidates candidates) {
        List<String> usernames =
                requests.stream().map(ConnectApi.ConnectRequest::username).toList();
        Set<String> batchUsernames = new HashSet<>(usernames);
        return (username, clientId, cn) ->
                batchUsernames.contains(username) ? candidates : candidatesOf(username, clientId, cn);
    }

    private CredentialCandidates candidatesOf(String username, String clientId, String certificateCn) {
        return credentials.candidates(
                Collections.singletonList(username), List.of(clientId), Collections.singletonList(certificateCn));
    }

    private Authentication authenticate(
            ConnectApi.ConnectRequest request, Runnable blockCheck, CredentialLookup lookup) {
        try {
            if (request.warmUp()) {
                Authentication result = warmUp(request);
                counters.warmUp.increment();
                return result;
            }
            // First: a banned client costs no password hash.
            blockCheck.run();
            Optional<Authentication> byCertificate = byCertificate(request, lookup);
            if (byCertificate.isPresent()) {
                counters.certificate.increment();
                return byCertificate.get();
            }
            // Before any secret is checked: an address past its failures costs no bcrypt.
            backOff.check(request);
            boolean token = jwt.isPresent() && JwtVerifier.isToken(request.password());
            Authentication result = token ? byToken(request, jwt.get(), lookup) : decide(request, lookup);
            (token ? counters.token : result.credentialId() == null ? counters.anonymous : counters.password)
                    .increment();
            backOff.accepted(request);
            return result;
        } catch (ConnectRefusedException e) {
            backOff.refused(request, e);
            refusals.record(request, e);
            throw e;
        }
    }

    /**
     * A mutual-TLS CONNECT whose verified certificate CN a credential names (and whose user name and client id fit
     * it) is authenticated without a password; a password it carries is not checked. Empty: no such credential, the
     * password rules apply.
     */
    private Optional<Authentication> byCertificate(ConnectApi.ConnectRequest request, CredentialLookup lookup) {
        String cn = request.certificateCommonName();
        if (cn == null || cn.isEmpty()) {
            return Optional.empty();
        }
        Optional<Credential> match = CredentialFit.byCertificate(
                lookup.of(request.username(), request.clientId(), cn), cn, request.username(), request.clientId());
        if (match.isEmpty()) {
            return Optional.empty();
        }
        Credential credential = match.get();
        if (credential.blocked()) {
            throw new ConnectRefusedException(RefusalReason.NOT_AUTHORIZED, "blocked", "credential is blocked");
        }
        // The certificate proves the CN, not the user name: %u resolves only when the credential names the user
        // name (then the CONNECT's equals it), so a certificate cannot claim another user's %u topics.
        String provenUsername = credential.username() == null ? null : request.username();
        return Optional.of(authorized(request, credential, provenUsername));
    }

    /** The token verified; a token JwtVerifier does not accept refuses the CONNECT as a bad user name or password. */
    private static VerifiedToken verified(ConnectApi.ConnectRequest request, JwtVerifier verifier) {
        try {
            return verifier.verify(request.password(), request.username(), request.clientId());
        } catch (TokenRefusedException e) {
            throw new ConnectRefusedException(RefusalReason.BAD_USERNAME_OR_PASSWORD, e.metricCause(), e.getMessage());
        }
    }

    /**
     * A valid token, then its authorization: the credential naming its subject (and fitting the client id) may block
     * it and supplies the ACL when the token carries none; with neither, the client is not authorized.
     */
    private Authentication byToken(ConnectApi.ConnectRequest request, JwtVerifier verifier, CredentialLookup lookup) {
        VerifiedToken token = verified(request, verifier);
        CredentialCandidates candidates = lookup.of(token.subject(), request.clientId(), null);
        Optional<Credential> match = CredentialFit.byToken(candidates, token.subject(), request.clientId());
        if (match.isEmpty() && CredentialFit.refusesToken(candidates, token.subject(), request.clientId())) {
            throw noFittingCredential();
        }
        if (match.isPresent() && match.get().blocked()) {
            throw new ConnectRefusedException(RefusalReason.NOT_AUTHORIZED, "blocked", "credential is blocked");
        }
        if (token.acl() == null && match.isEmpty()) {
            throw new ConnectRefusedException(
                    RefusalReason.NOT_AUTHORIZED,
                    "token_no_acl",
                    "the token carries no ACL and no credential names its subject");
        }
        List<String> publish =
                token.acl() != null ? token.acl().publish() : match.get().publishAcl();
        List<String> subscribe =
                token.acl() != null ? token.acl().subscribe() : match.get().subscribeAcl();
        // Linked to the credential when there is one, so changing, blocking or deleting it closes the connection.
        return authorized(
                request,
                match.map(Credential::id).orElse(null),
                match.map(Credential::version).orElse(0L),
                publish,
                subscribe,
                token.subject(),
                token.acceptedUntil(),
                match.map(Credential::tenant).orElse(null));
    }

    private Authentication decide(ConnectApi.ConnectRequest request, CredentialLookup lookup) {
        CredentialCandidates candidates = lookup.of(request.username(), request.clientId(), null);
        Optional<Credential> match = CredentialFit.byPassword(candidates, request.username(), request.clientId());
        if (match.isEmpty()) {
            if (CredentialFit.named(candidates, request.username(), request.clientId())) {
                // Its own credential is the only way in for a client id (or user name) that has one; a password
                // costs what checking one costs, so the refusal takes no less time than a wrong password.
                if (request.password() != null) {
                    hasher.burnDecoy(request.password());
                }
                throw noFittingCredential();
            }
            if (request.password() != null) {
                hasher.burnDecoy(request.password());
                throw new ConnectRefusedException(
                        RefusalReason.BAD_USERNAME_OR_PASSWORD, "unknown_credentials", "bad user name or password");
            }
            if (!properties.anonymous()) {
                throw new ConnectRefusedException(
                        RefusalReason.NOT_AUTHORIZED,
                        "anonymous_denied",
                        "anonymous access is disabled: a user name and password are required");
            }
            return anonymous(request);
        }
        Credential credential = match.get();
        if (credential.passwordHash() == null) {
            // A certificate-only credential protects its user name / client id: without that certificate, no entry.
            hasher.burnDecoy(request.password());
            throw new ConnectRefusedException(
                    RefusalReason.BAD_USERNAME_OR_PASSWORD, "certificate_required", "bad user name or password");
        }
        if (request.password() == null) {
            throw new ConnectRefusedException(
                    RefusalReason.BAD_USERNAME_OR_PASSWORD, "missing_password", "bad user name or password");
        }
        if (!hasher.matches(request.password(), credential.passwordHash())) {
            throw new ConnectRefusedException(
                    RefusalReason.BAD_USERNAME_OR_PASSWORD, "bad_password", "bad user name or password");
        }
        // Checked after the password, so a blocked credential tells nothing to somebody who does not know it.
        if (credential.blocked()) {
            throw new ConnectRefusedException(RefusalReason.NOT_AUTHORIZED, "blocked", "credential is blocked");
        }
        return authorized(request, credential, request.username());
    }

    /** Answered like a wrong password, so the refusal does not tell which identities credentials name. */
    private static ConnectRefusedException noFittingCredential() {
        return new ConnectRefusedException(
                RefusalReason.BAD_USERNAME_OR_PASSWORD, "no_fitting_credential", "bad user name or password");
    }

    /**
     * A transport node's own warm-up client (the node marks it; only its in-process channel can carry the mark):
     * no credential, and held to the node's warm-up namespace both ways, whatever anonymous access allows.
     */
    private Authentication warmUp(ConnectApi.ConnectRequest request) {
        List<String> own = List.of(WarmUpNamespace.filter(request.nodeId()));
        if (!TopicPermissions.of(new ConnectApi.Acl(own, own)).mayPublish(request.clientId())) {
            throw new ConnectRefusedException(
                    RefusalReason.NOT_AUTHORIZED,
                    "warm_up_client_id",
                    "a warm-up client id must lie in its node's warm-up namespace " + own.get(0));
        }
        return authorized(request, null, 0, own, own, null, null, null);
    }

    /**
     * An anonymous client: unrestricted, or held to the configured anonymous ACL like a credential's (a will outside
     * it refused). Its user name, if any, is unproven, so {@code %u} entries match nothing.
     */
    private Authentication anonymous(ConnectApi.ConnectRequest request) {
        AuthProperties.AnonymousAcl acl = properties.anonymousAclOrNone();
        if (!acl.configured()) {
            return Authentication.ANONYMOUS;
        }
        return authorized(request, null, 0, acl.publish(), acl.subscribe(), null, null, null);
    }

    /**
     * The credential's ACL resolved for this connection ({@code %cn}: the verified certificate CN, entries naming it
     * match nothing without a certificate); refuses a will the publish ACL does not allow.
     */
    private Authentication authorized(ConnectApi.ConnectRequest request, Credential credential, String username) {
        return authorized(
                request,
                credential.id(),
                credential.version(),
                credential.publishAcl(),
                credential.subscribeAcl(),
                username,
                null,
                credential.tenant());
    }

    private Authentication authorized(
            ConnectApi.ConnectRequest request,
            Long credentialId,
            long version,
            List<String> publish,
            List<String> subscribe,
            String username,
            Instant expiresAt,
            String tenant) {
        String cn = request.certificateCommonName();
        ConnectApi.Acl acl = new ConnectApi.Acl(
                AclPlaceholders.resolve(publish, request.clientId(), username, cn),
                AclPlaceholders.resolve(subscribe, request.clientId(), username, cn));
        if (request.will() != null
                && !TopicPermissions.of(acl).mayPublish(request.will().topic())) {
            // Refused now rather than dropped when the client dies: the client learns it at once (MQTT 5 3.1.4
            // lets the server refuse a CONNECT that fails authorization), not never.
            throw new ConnectRefusedException(
                    RefusalReason.NOT_AUTHORIZED,
                    "will_not_authorized",
                    "will topic '" + request.will().topic() + "' is not allowed by the publish ACL");
        }
        return new Authentication(credentialId, version, acl, expiresAt, tenant);
    }
}
